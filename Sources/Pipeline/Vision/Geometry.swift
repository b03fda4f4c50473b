/// A point in image pixels (x right, y down).
public struct Point2: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    @inlinable public static func + (a: Point2, b: Point2) -> Point2 { Point2(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point2, b: Point2) -> Point2 { Point2(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point2, s: Double) -> Point2 { Point2(x: a.x * s, y: a.y * s) }
    @inlinable public func dot(_ o: Point2) -> Double { x * o.x + y * o.y }
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
}

/// An axis-aligned face box in image pixels; `right` and `bottom` are exclusive.
public struct FaceBox: Sendable, Equatable {
    public var left: Double
    public var top: Double
    public var right: Double
    public var bottom: Double
    public init(left: Double, top: Double, right: Double, bottom: Double) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }
    public init(center: Point2, size: Double) {
        self.init(left: center.x - size / 2, top: center.y - size / 2, right: center.x + size / 2, bottom: center.y + size / 2)
    }

    public var width: Double { right - left }
    public var height: Double { bottom - top }
    public var center: Point2 { Point2(x: (left + right) / 2, y: (top + bottom) / 2) }
    public var area: Double { max(0, width) * max(0, height) }

    public func offset(by d: Point2) -> FaceBox {
        FaceBox(left: left + d.x, top: top + d.y, right: right + d.x, bottom: bottom + d.y)
    }

    /// Intersection over union: 1 for the same box, 0 for disjoint boxes.
    public func overlap(_ o: FaceBox) -> Double {
        let w = min(right, o.right) - max(left, o.left)
        let h = min(bottom, o.bottom) - max(top, o.top)
        guard w > 0, h > 0 else { return 0 }
        let inter = w * h
        return inter / (area + o.area - inter)
    }
}

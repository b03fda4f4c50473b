// Thin glue between Swift and dlib: the HOG face detector, and reading a shape-predictor model into flat arrays.
#include "CDlibFace.h"

#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <vector>

namespace nodwire_shim {

// A borrowed 8-bit grey image: dlib's generic image interface over Swift's buffer, no copy.
// The free functions sit beside the type so dlib finds them by argument-dependent lookup.
struct luma_view {
    const uint8_t *data;
    long rows, cols, stride;
};
inline long num_rows(const luma_view &v) { return v.rows; }
inline long num_columns(const luma_view &v) { return v.cols; }
inline long width_step(const luma_view &v) { return v.stride; }
inline const void *image_data(const luma_view &v) { return v.data; }
inline void *image_data(luma_view &v) { return const_cast<uint8_t *>(v.data); }

}  // namespace nodwire_shim

using nodwire_shim::luma_view;
namespace dlib {
template <> struct image_traits<luma_view> { typedef unsigned char pixel_type; };
}

using frontal_detector = dlib::object_detector<dlib::scan_fhog_pyramid<dlib::pyramid_down<6>>>;

struct nw_detector {
    frontal_detector full = dlib::get_frontal_face_detector();
    std::map<int, frontal_detector> capped;  // the same weights with a capped pyramid, by level count
    dlib::array2d<unsigned char> scaled;      // reused resample buffer

    frontal_detector &with_levels(int levels) {
        if (levels <= 0) return full;
        auto found = capped.find(levels);
        if (found != capped.end()) return found->second;
        frontal_detector::image_scanner_type scanner;
        scanner.copy_configuration(full.get_scanner());
        scanner.set_max_pyramid_levels(static_cast<unsigned long>(levels));
        std::vector<frontal_detector::feature_vector_type> weights;
        for (unsigned long i = 0; i < full.num_detectors(); ++i) weights.push_back(full.get_w(i));
        return capped.emplace(levels, frontal_detector(scanner, full.get_overlap_tester(), weights)).first->second;
    }
};

extern "C" nw_detector *nw_detector_create(void) {
    try {
        return new nw_detector();
    } catch (...) {
        return nullptr;
    }
}

extern "C" void nw_detector_destroy(nw_detector *detector) { delete detector; }

extern "C" int nw_detect(nw_detector *detector, const uint8_t *pixels, int width, int height, int stride,
                         int roi_x, int roi_y, int roi_width, int roi_height, float scale, int max_levels,
                         nw_box *out, int capacity) {
    if (!detector || !pixels || width <= 0 || height <= 0 || stride < width || roi_x < 0 || roi_y < 0 ||
        roi_width <= 0 || roi_height <= 0 || roi_x + roi_width > width || roi_y + roi_height > height ||
        !(scale > 0.05f && scale <= 4.0f) || capacity < 0)
        return -1;
    try {
        const luma_view roi{pixels + static_cast<long>(roi_y) * stride + roi_x, roi_height, roi_width, stride};
        const long scaled_cols = std::max(1L, std::lround(roi_width * scale));
        const long scaled_rows = std::max(1L, std::lround(roi_height * scale));
        detector->scaled.set_size(scaled_rows, scaled_cols);
        dlib::resize_image(roi, detector->scaled, dlib::interpolate_bilinear());
        std::vector<std::pair<double, dlib::rectangle>> found;
        detector->with_levels(max_levels)(detector->scaled, found, 0.0);
        std::sort(found.begin(), found.end(), [](auto &a, auto &b) { return a.first > b.first; });
        const double sx = static_cast<double>(roi_width) / scaled_cols, sy = static_cast<double>(roi_height) / scaled_rows;
        int n = 0;
        for (const auto &f : found) {
            if (n >= capacity) break;
            const dlib::rectangle &r = f.second;
            out[n++] = nw_box{static_cast<float>(roi_x + r.left() * sx), static_cast<float>(roi_y + r.top() * sy),
                              static_cast<float>(roi_x + (r.right() + 1) * sx), static_cast<float>(roi_y + (r.bottom() + 1) * sy),
                              static_cast<float>(f.first)};
        }
        return n;
    } catch (...) {
        return -1;
    }
}

namespace {

// The fields of dlib::shape_predictor in its file order (see dlib's shape_predictor serialize()).
struct shape_predictor_fields {
    dlib::matrix<float, 0, 1> initial_shape;
    std::vector<std::vector<dlib::impl::regression_tree>> forests;
    std::vector<std::vector<unsigned long>> anchor_idx;
    std::vector<std::vector<dlib::vector<float, 2>>> deltas;
};

void write_error(char *error, size_t capacity, const std::string &message) {
    if (!error || capacity == 0) return;
    std::strncpy(error, message.c_str(), capacity - 1);
    error[capacity - 1] = '\0';
}

template <typename T> T *copy_out(const std::vector<T> &v) {
    T *p = static_cast<T *>(std::malloc(sizeof(T) * std::max<size_t>(1, v.size())));
    if (p) std::copy(v.begin(), v.end(), p);
    return p;
}

}  // namespace

extern "C" nw_shape_model *nw_shape_model_load(const char *path, char *error, size_t error_capacity) {
    std::ifstream in(path ? path : "", std::ios::binary);
    if (!in) {
        write_error(error, error_capacity, std::string("cannot open the landmark model file ") + (path ? path : "(none)"));
        return nullptr;
    }
    shape_predictor_fields f;
    try {
        int version = 0;
        dlib::deserialize(version, in);
        if (version != 1) throw dlib::serialization_error("unsupported shape_predictor version " + std::to_string(version));
        dlib::deserialize(f.initial_shape, in);
        dlib::deserialize(f.forests, in);
        dlib::deserialize(f.anchor_idx, in);
        dlib::deserialize(f.deltas, in);
    } catch (const std::exception &e) {
        write_error(error, error_capacity, std::string(path) + " is not a dlib shape predictor model: " + e.what());
        return nullptr;
    }
    // Flatten; every tree must be complete and every cascade level the same size, which dlib's trainer guarantees.
    const int parts = static_cast<int>(f.initial_shape.size() / 2);
    const int cascades = static_cast<int>(f.forests.size());
    if (parts < 1 || cascades < 1 || f.forests[0].empty() || f.anchor_idx.size() != f.forests.size() || f.deltas.size() != f.forests.size()) {
        write_error(error, error_capacity, std::string(path) + ": the model's cascade is empty or inconsistent");
        return nullptr;
    }
    const int trees = static_cast<int>(f.forests[0].size());
    const int splits = static_cast<int>(f.forests[0][0].splits.size());
    const int leaves = splits + 1;
    int depth = 0;
    while ((1 << depth) < leaves) ++depth;
    const int features = static_cast<int>(f.anchor_idx[0].size());
    std::vector<int32_t> anchor, split_a, split_b;
    std::vector<float> delta, thresh, leaf;
    for (int c = 0; c < cascades; ++c) {
        if (static_cast<int>(f.forests[c].size()) != trees || static_cast<int>(f.anchor_idx[c].size()) != features ||
            static_cast<int>(f.deltas[c].size()) != features) {
            write_error(error, error_capacity, std::string(path) + ": cascade levels differ in size; not supported");
            return nullptr;
        }
        for (int i = 0; i < features; ++i) {
            anchor.push_back(static_cast<int32_t>(f.anchor_idx[c][i]));
            delta.push_back(f.deltas[c][i].x());
            delta.push_back(f.deltas[c][i].y());
        }
        for (const auto &tree : f.forests[c]) {
            if (static_cast<int>(tree.splits.size()) != splits || static_cast<int>(tree.leaf_values.size()) != leaves || (1 << depth) != leaves) {
                write_error(error, error_capacity, std::string(path) + ": trees differ in depth; not supported");
                return nullptr;
            }
            for (const auto &s : tree.splits) {
                split_a.push_back(static_cast<int32_t>(s.idx1));
                split_b.push_back(static_cast<int32_t>(s.idx2));
                thresh.push_back(s.thresh);
            }
            for (const auto &l : tree.leaf_values)
                for (long k = 0; k < l.size(); ++k) leaf.push_back(l(k));
        }
    }
    std::vector<float> initial(f.initial_shape.begin(), f.initial_shape.end());
    auto *m = static_cast<nw_shape_model *>(std::calloc(1, sizeof(nw_shape_model)));
    if (!m) return nullptr;
    *m = nw_shape_model{parts, cascades, trees, depth, features, copy_out(initial), copy_out(anchor), copy_out(delta),
                        copy_out(split_a), copy_out(split_b), copy_out(thresh), copy_out(leaf)};
    return m;
}

extern "C" void nw_shape_model_free(nw_shape_model *m) {
    if (!m) return;
    for (void *p : {(void *)m->initial_shape, (void *)m->anchor, (void *)m->delta, (void *)m->split_a, (void *)m->split_b,
                    (void *)m->split_threshold, (void *)m->leaf})
        std::free(p);
    std::free(m);
}

extern "C" int nw_shape_reference_fit(const char *model_path, const uint8_t *pixels, int width, int height, int stride,
                                      nw_box box, float *out, int out_capacity) {
    try {
        dlib::shape_predictor sp;
        dlib::deserialize(model_path) >> sp;
        const luma_view img{pixels, height, width, stride};
        const dlib::rectangle rect(std::lround(box.left), std::lround(box.top), std::lround(box.right) - 1, std::lround(box.bottom) - 1);
        const dlib::full_object_detection shape = sp(img, rect);
        for (unsigned long i = 0; i < shape.num_parts() && static_cast<int>(2 * i + 1) < out_capacity; ++i) {
            out[2 * i] = static_cast<float>(shape.part(i).x());
            out[2 * i + 1] = static_cast<float>(shape.part(i).y());
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

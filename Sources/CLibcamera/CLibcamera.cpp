/* CLibcamera: see include/CLibcamera.h. Data plumbing only: libcamera objects in, plain C structs and
 * mapped buffers out. Compiled and run (vimc, hardware/tests) against libcamera 0.0.3 (Debian 12) and 0.4.0
 * (Debian 13 chroot). Version differences are the NW_LIBCAMERA_* guards below. */
#include "CLibcamera.h"

#include <libcamera/libcamera.h>
#include <libcamera/version.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace libcamera;

#define NW_LIBCAMERA_AT_LEAST(major, minor) \
    (LIBCAMERA_VERSION_MAJOR > (major) || (LIBCAMERA_VERSION_MAJOR == (major) && LIBCAMERA_VERSION_MINOR >= (minor)))

/* 0.2.0 replaced CameraConfiguration::transform (relative to the sensor's read-out, the application
 * compensates the mounting rotation) by ::orientation (relative to the upright picture, libcamera
 * compensates it). */
#define NW_LIBCAMERA_HAS_ORIENTATION NW_LIBCAMERA_AT_LEAST(0, 2)

namespace {

/* ---- the process's one CameraManager, shared and reference-counted */

std::mutex managerLock;
CameraManager *manager = nullptr;
int managerUsers = 0;

int managerRef(CameraManager **out)
{
    std::lock_guard<std::mutex> g(managerLock);
    if (!manager) {
        auto m = std::make_unique<CameraManager>();
        if (int r = m->start())
            return r < 0 ? r : -EIO;
        manager = m.release();
    }
    managerUsers++;
    *out = manager;
    return 0;
}

void managerUnref()
{
    std::lock_guard<std::mutex> g(managerLock);
    if (managerUsers > 0 && --managerUsers == 0) {
        manager->stop();
        delete manager;
        manager = nullptr;
    }
}

/* ---- flips: (hflip, vflip) relative to the camera's upright picture */

struct Flips {
    bool h = false, v = false;
};

#if NW_LIBCAMERA_HAS_ORIENTATION
void setFlips(CameraConfiguration &config, const Camera &, Flips f)
{
    config.orientation = f.v ? (f.h ? Orientation::Rotate180 : Orientation::Rotate180Mirror)
                             : (f.h ? Orientation::Rotate0Mirror : Orientation::Rotate0);
}

Flips getFlips(const CameraConfiguration &config, const Camera &)
{
    switch (config.orientation) {
    case Orientation::Rotate0Mirror: return { true, false };
    case Orientation::Rotate180: return { true, true };
    case Orientation::Rotate180Mirror: return { false, true };
    default: return {}; /* Rotate0, or a 90/270 mounting the camera could not undo */
    }
}
#else
Transform mounting(const Camera &camera)
{
    bool ok = false;
    std::optional<int32_t> degrees = camera.properties().get(properties::Rotation);
    Transform t = degrees ? transformFromRotation(*degrees, &ok) : Transform::Identity;
    return ok ? t : Transform::Identity;
}

void setFlips(CameraConfiguration &config, const Camera &camera, Flips f)
{
    Transform user = Transform::Identity;
    if (f.h) user = user ^ Transform::HFlip;
    if (f.v) user = user ^ Transform::VFlip;
    config.transform = user * mounting(camera);
}

Flips getFlips(const CameraConfiguration &config, const Camera &camera)
{
    Transform user = config.transform * -mounting(camera);
    if (!!(user & Transform::Transpose))
        return {};
    return { !!(user & Transform::HFlip), !!(user & Transform::VFlip) };
}
#endif

/* A viewfinder configuration for the wish, validated. nullptr + *error when it cannot be met. */
std::unique_ptr<CameraConfiguration> propose(Camera &camera, const nw_cam_config &want, bool *adjusted, int *error)
{
    /* 0.0.x takes a std::vector<StreamRole>; 0.1+ a Span<const StreamRole>, which a vector converts to. */
    std::vector<StreamRole> roles{ StreamRole::Viewfinder };
    std::unique_ptr<CameraConfiguration> config = camera.generateConfiguration(roles);
    if (!config || config->size() != 1) {
        *error = -EINVAL;
        return nullptr;
    }
    StreamConfiguration &sc = config->at(0);
    if (want.width && want.height)
        sc.size = Size(want.width, want.height);
    if (want.fourcc)
        sc.pixelFormat = PixelFormat(want.fourcc);
    if (want.buffer_count)
        sc.bufferCount = want.buffer_count;
    setFlips(*config, camera, { want.hflip, want.vflip });
    switch (config->validate()) {
    case CameraConfiguration::Invalid:
        *error = -EINVAL;
        return nullptr;
    case CameraConfiguration::Adjusted:
        *adjusted = true;
        break;
    case CameraConfiguration::Valid:
        *adjusted = false;
        break;
    }
    return config;
}

void describe(const CameraConfiguration &config, const Camera &camera, bool adjusted, nw_cam_stream *out)
{
    const StreamConfiguration &sc = config.at(0);
    *out = nw_cam_stream{};
    out->width = sc.size.width;
    out->height = sc.size.height;
    out->stride = sc.stride;
    out->fourcc = sc.pixelFormat.fourcc();
    out->frame_size = sc.frameSize;
    out->buffer_count = sc.bufferCount;
    Flips f = getFlips(config, camera);
    out->hflip = f.h;
    out->vflip = f.v;
    out->adjusted = adjusted;
    snprintf(out->format_name, sizeof(out->format_name), "%s", sc.pixelFormat.toString().c_str());
    snprintf(out->text, sizeof(out->text), "%s", sc.toString().c_str());
}

/* ---- one camera's information, for the list */

struct FormatEntry {
    std::string name;
    std::vector<nw_cam_size> sizes;
    nw_cam_format_info info{};
};

struct CameraEntry {
    std::string id, model;
    std::vector<FormatEntry> formats;
    std::vector<nw_cam_format_info> formatInfos;
    nw_cam_info info{};
};

void fill(Camera &camera, CameraEntry &e)
{
    e.id = camera.id();
    e.info.location = NW_CAM_LOCATION_UNKNOWN;
    e.info.mounting_rotation = -1;
    const ControlList &props = camera.properties();
    if (auto model = props.get(properties::Model))
        e.model = *model;
    if (auto location = props.get(properties::Location))
        e.info.location = *location;
    if (auto rotation = props.get(properties::Rotation))
        e.info.mounting_rotation = *rotation;

    const ControlInfoMap &controls = camera.controls();
    auto limits = controls.find(&controls::FrameDurationLimits);
    if (limits != controls.end()) {
        const ControlValue &lo = limits->second.min(), &hi = limits->second.max();
        if (lo.type() == ControlTypeInteger64 && !lo.isArray() && hi.type() == ControlTypeInteger64 && !hi.isArray()) {
            e.info.min_frame_duration_us = lo.get<int64_t>();
            e.info.max_frame_duration_us = hi.get<int64_t>();
        }
    }

    std::vector<StreamRole> roles{ StreamRole::Viewfinder };
    std::unique_ptr<CameraConfiguration> config = camera.generateConfiguration(roles);
    if (!config || config->empty())
        return;
    const StreamConfiguration &sc = config->at(0);
    e.info.default_size = { sc.size.width, sc.size.height };
    e.info.default_fourcc = sc.pixelFormat.fourcc();
    const StreamFormats &formats = sc.formats();
    for (const PixelFormat &pf : formats.pixelformats()) {
        FormatEntry f;
        f.name = pf.toString();
        for (const Size &s : formats.sizes(pf))
            f.sizes.push_back({ s.width, s.height });
        SizeRange range = formats.range(pf);
        f.info.fourcc = pf.fourcc();
        f.info.min = { range.min.width, range.min.height };
        f.info.max = { range.max.width, range.max.height };
        f.info.h_step = range.hStep;
        f.info.v_step = range.vStep;
        e.formats.push_back(std::move(f));
    }
}

} /* namespace */

/* ---- versions */

extern "C" const char *nw_cam_library_version(void)
{
    return CameraManager::version().c_str();
}

extern "C" int nw_cam_header_version(void)
{
    return LIBCAMERA_VERSION_MAJOR * 10000 + LIBCAMERA_VERSION_MINOR * 100 + LIBCAMERA_VERSION_PATCH;
}

/* ---- list */

/* Holds a reference on the manager, so a camera opened while the list exists does not restart libcamera. */
struct nw_cam_list {
    std::vector<std::unique_ptr<CameraEntry>> cameras;
    ~nw_cam_list() { managerUnref(); }
};

extern "C" nw_cam_list *nw_cam_list_create(int *error)
{
    CameraManager *cm = nullptr;
    if (int r = managerRef(&cm)) {
        if (error) *error = r;
        return nullptr;
    }
    auto list = std::make_unique<nw_cam_list>(); /* owns the reference from here on */
    for (const std::shared_ptr<Camera> &camera : cm->cameras()) {
        auto e = std::make_unique<CameraEntry>();
        fill(*camera, *e);
        /* Pointers into the entry's own storage, set once it no longer grows. */
        for (FormatEntry &f : e->formats) {
            f.info.name = f.name.c_str();
            f.info.sizes = f.sizes.data();
            f.info.size_count = f.sizes.size();
            e->formatInfos.push_back(f.info);
        }
        e->info.id = e->id.c_str();
        e->info.model = e->model.c_str();
        e->info.formats = e->formatInfos.data();
        e->info.format_count = e->formatInfos.size();
        list->cameras.push_back(std::move(e));
    }
    return list.release();
}

extern "C" void nw_cam_list_free(nw_cam_list *list)
{
    delete list;
}

extern "C" size_t nw_cam_list_count(const nw_cam_list *list)
{
    return list ? list->cameras.size() : 0;
}

extern "C" const nw_cam_info *nw_cam_list_get(const nw_cam_list *list, size_t index)
{
    if (!list || index >= list->cameras.size())
        return nullptr;
    return &list->cameras[index]->info;
}

/* ---- one camera */

struct Slot {
    std::unique_ptr<Request> request;
    FrameBuffer *buffer = nullptr;
    void *base = MAP_FAILED;
    size_t length = 0;
    const uint8_t *plane0 = nullptr;
    size_t plane0Length = 0;
};

struct nw_cam {
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> config;
    std::unique_ptr<FrameBufferAllocator> allocator;
    Stream *stream = nullptr;
    std::vector<Slot> slots;
    bool started = false;

    /* Shared with libcamera's thread (requestCompleted, disconnected). */
    std::mutex lock;
    std::condition_variable changed;
    bool running = false;
    bool gone = false;
    Request *newest = nullptr; /* completed, not taken yet */
    Request *held = nullptr;   /* taken by the caller */
    nw_cam_counters counters{};

    /* Gives a request back to the camera. Camera::queueRequest is thread-safe and only posts a message. */
    void requeue(Request *request)
    {
        request->reuse(Request::ReuseBuffers);
        camera->queueRequest(request);
    }

    void onCompleted(Request *request)
    {
        if (request->status() == Request::RequestCancelled)
            return; /* stopping: the buffer stays with us */
        Request *stale = nullptr;
        {
            std::lock_guard<std::mutex> g(lock);
            if (!running)
                return;
            const Slot &slot = slots[request->cookie()];
            if (slot.buffer->metadata().status != FrameMetadata::FrameSuccess) {
                counters.failed++;
                stale = request;
            } else {
                counters.completed++;
                if (newest) {
                    counters.dropped++;
                    stale = newest;
                }
                newest = request;
                changed.notify_all();
            }
            if (stale)
                requeue(stale);
        }
    }

    void onDisconnected()
    {
        std::lock_guard<std::mutex> g(lock);
        gone = true;
        changed.notify_all();
    }
};

extern "C" nw_cam *nw_cam_open(const char *id, int *error)
{
    int dummy;
    if (!error) error = &dummy;
    CameraManager *cm = nullptr;
    if (int r = managerRef(&cm)) {
        *error = r;
        return nullptr;
    }
    std::shared_ptr<Camera> camera = id ? cm->get(id) : nullptr;
    if (!camera) {
        managerUnref();
        *error = -ENODEV;
        return nullptr;
    }
    if (int r = camera->acquire()) {
        camera.reset();
        managerUnref();
        *error = r < 0 ? r : -EBUSY;
        return nullptr;
    }
    auto cam = std::make_unique<nw_cam>();
    cam->camera = std::move(camera);
    cam->camera->requestCompleted.connect(cam.get(), &nw_cam::onCompleted);
    cam->camera->disconnected.connect(cam.get(), &nw_cam::onDisconnected);
    return cam.release();
}

extern "C" int nw_cam_try(nw_cam *cam, const nw_cam_config *want, nw_cam_stream *got)
{
    if (!cam || !want || !got) return -EINVAL;
    int error = 0;
    bool adjusted = false;
    std::unique_ptr<CameraConfiguration> config = propose(*cam->camera, *want, &adjusted, &error);
    if (!config) return error;
    describe(*config, *cam->camera, adjusted, got);
    return 0;
}

extern "C" int nw_cam_configure(nw_cam *cam, const nw_cam_config *want, nw_cam_stream *got)
{
    if (!cam || !want || !got) return -EINVAL;
    if (cam->config) return -EALREADY;
    int error = 0;
    bool adjusted = false;
    std::unique_ptr<CameraConfiguration> config = propose(*cam->camera, *want, &adjusted, &error);
    if (!config) return error;
    if (int r = cam->camera->configure(config.get()))
        return r < 0 ? r : -EIO;
    Stream *stream = config->at(0).stream();
    auto allocator = std::make_unique<FrameBufferAllocator>(cam->camera);
    int n = allocator->allocate(stream);
    if (n <= 0)
        return n < 0 ? n : -ENOMEM;

    std::vector<Slot> slots;
    const std::vector<std::unique_ptr<FrameBuffer>> &buffers = allocator->buffers(stream);
    for (size_t i = 0; i < buffers.size(); i++) {
        FrameBuffer *fb = buffers[i].get();
        Slot slot;
        slot.buffer = fb;
        /* Map the whole dmabuf of plane 0 once: planes may share it at offsets, and mmap wants
         * page-aligned offsets, so map from 0 and point into it. */
        const FrameBuffer::Plane &p0 = fb->planes()[0];
        int fd = p0.fd.get();
        off_t end = lseek(fd, 0, SEEK_END);
        size_t length = end > 0 ? size_t(end) : size_t(p0.offset) + p0.length;
        void *base = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
        int mapError = errno;
        if (base == MAP_FAILED || size_t(p0.offset) + p0.length > length) {
            if (base != MAP_FAILED) munmap(base, length);
            for (Slot &s : slots) munmap(s.base, s.length);
            return base == MAP_FAILED ? -mapError : -EINVAL;
        }
        slot.base = base;
        slot.length = length;
        slot.plane0 = static_cast<const uint8_t *>(base) + p0.offset;
        slot.plane0Length = p0.length;
        slot.request = cam->camera->createRequest(i);
        int r = slot.request ? slot.request->addBuffer(stream, fb) : -ENOMEM;
        if (r < 0) {
            munmap(base, length);
            for (Slot &s : slots) munmap(s.base, s.length);
            return r;
        }
        slots.push_back(std::move(slot));
    }
    describe(*config, *cam->camera, adjusted, got);
    cam->config = std::move(config);
    cam->allocator = std::move(allocator);
    cam->stream = stream;
    cam->slots = std::move(slots);
    return 0;
}

extern "C" int nw_cam_start(nw_cam *cam, int64_t frame_duration_us)
{
    if (!cam) return -EINVAL;
    if (!cam->config) return -ESHUTDOWN;
    if (cam->started) return -EALREADY;
    ControlList controls(controls::controls);
    if (frame_duration_us > 0) {
        const ControlInfoMap &info = cam->camera->controls();
        if (info.find(&controls::FrameDurationLimits) == info.end())
            return -ENOTSUP;
        const int64_t limits[2] = { frame_duration_us, frame_duration_us };
        controls.set(controls::FrameDurationLimits, Span<const int64_t, 2>(limits));
    }
    if (int r = cam->camera->start(&controls))
        return r < 0 ? r : -EIO;
    cam->started = true;
    {
        std::lock_guard<std::mutex> g(cam->lock);
        cam->running = true;
    }
    for (Slot &slot : cam->slots) {
        slot.request->reuse(Request::ReuseBuffers); /* after a stop they still carry the old state */
        if (int r = cam->camera->queueRequest(slot.request.get())) {
            nw_cam_stop(cam);
            return r < 0 ? r : -EIO;
        }
    }
    return 0;
}

extern "C" void nw_cam_stop(nw_cam *cam)
{
    if (!cam) return;
    {
        std::lock_guard<std::mutex> g(cam->lock);
        cam->running = false;
        cam->newest = nullptr;
        cam->held = nullptr;
        cam->changed.notify_all();
    }
    if (cam->started) {
        cam->camera->stop();
        cam->started = false;
    }
}

extern "C" int nw_cam_next(nw_cam *cam, int timeout_ms, nw_cam_frame *out)
{
    if (!cam || !out) return -EINVAL;
    std::unique_lock<std::mutex> g(cam->lock);
    if (cam->held && cam->running)
        cam->requeue(cam->held);
    cam->held = nullptr;
    auto ready = [cam] { return cam->newest || cam->gone || !cam->running; };
    cam->changed.wait_for(g, std::chrono::milliseconds(std::max(timeout_ms, 0)), ready);
    if (cam->gone) return -ENODEV;
    if (!cam->running) return -ESHUTDOWN;
    if (!cam->newest) return -ETIMEDOUT;
    cam->held = cam->newest;
    cam->newest = nullptr;
    cam->counters.taken++;
    const Slot &slot = cam->slots[cam->held->cookie()];
    const FrameMetadata &md = slot.buffer->metadata();
    out->data = slot.plane0;
    out->mapped_bytes = slot.length - size_t(slot.plane0 - static_cast<const uint8_t *>(slot.base));
    out->bytes = md.planes().empty() ? slot.plane0Length : std::min<size_t>(md.planes()[0].bytesused, out->mapped_bytes);
    out->sequence = md.sequence;
    out->timestamp_ns = md.timestamp;
    return 0;
}

extern "C" void nw_cam_release_frame(nw_cam *cam)
{
    if (!cam) return;
    std::lock_guard<std::mutex> g(cam->lock);
    if (cam->held && cam->running)
        cam->requeue(cam->held);
    cam->held = nullptr;
}

extern "C" void nw_cam_get_counters(nw_cam *cam, nw_cam_counters *out)
{
    if (!cam || !out) return;
    std::lock_guard<std::mutex> g(cam->lock);
    *out = cam->counters;
}

extern "C" bool nw_cam_disconnected(nw_cam *cam)
{
    if (!cam) return false;
    std::lock_guard<std::mutex> g(cam->lock);
    return cam->gone;
}

extern "C" void nw_cam_close(nw_cam *cam)
{
    if (!cam) return;
    nw_cam_stop(cam);
    cam->camera->requestCompleted.disconnect(cam);
    cam->camera->disconnected.disconnect(cam);
    for (Slot &slot : cam->slots)
        if (slot.base != MAP_FAILED) munmap(slot.base, slot.length);
    cam->slots.clear(); /* the requests, before the buffers they point to */
    cam->allocator.reset();
    cam->config.reset();
    cam->camera->release();
    cam->camera.reset();
    delete cam;
    managerUnref();
}

extern "C" void nw_cam_abandon(nw_cam *cam)
{
    if (!cam) return;
    {
        std::lock_guard<std::mutex> g(cam->lock);
        cam->running = false;
        cam->gone = true;
        cam->changed.notify_all();
    }
    cam->camera->requestCompleted.disconnect(cam);
    cam->camera->disconnected.disconnect(cam);
    /* Deliberately leaked: see the header. */
}

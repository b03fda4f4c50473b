/* CLibcamera: Nodwire's thin C API over libcamera (C++), for Swift.
 *
 * One API over libcamera 0.0.x (Debian 12: 0.0.3) and 0.2+ (Debian 13: 0.4; Raspberry Pi OS: 0.3-0.5).
 * The differences (generateConfiguration's argument type, CameraConfiguration::transform becoming
 * ::orientation in 0.2) are resolved at compile time in CLibcamera.cpp from <libcamera/version.h>.
 * This header does not include libcamera, so Swift sees the same types on every version.
 *
 * No policy lives here: which pixel format to prefer, what to do when the camera adjusts a request,
 * conversion to luma, software flips, frame-rate choice, retries and messages are Swift's (Pipeline).
 * Functions that can fail return 0 or a negative errno value (or NULL and set *error to one). */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* --- versions */

/* The libcamera the program runs with, e.g. "v0.0.3" (CameraManager::version()). */
const char *nw_cam_library_version(void);
/* The libcamera headers it was compiled against: major * 10000 + minor * 100 + patch (0.4.0 -> 400). */
int nw_cam_header_version(void);

/* --- what exists */

typedef struct {
    uint32_t width;
    uint32_t height;
} nw_cam_size;

/* One pixel format a camera offers for a viewfinder stream. */
typedef struct {
    uint32_t fourcc;              /* DRM fourcc code, e.g. 'Y','U','1','2' for YUV420 */
    const char *name;             /* libcamera's name for it, e.g. "YUV420" */
    nw_cam_size min, max;         /* the size range it accepts */
    uint32_t h_step, v_step;      /* size granularity inside that range (0 when unknown) */
    const nw_cam_size *sizes;     /* the discrete sizes it lists (may be none) */
    size_t size_count;
} nw_cam_format_info;

typedef enum {
    NW_CAM_LOCATION_UNKNOWN = -1,
    NW_CAM_LOCATION_FRONT = 0,
    NW_CAM_LOCATION_BACK = 1,
    NW_CAM_LOCATION_EXTERNAL = 2,
} nw_cam_location;

typedef struct {
    const char *id;               /* libcamera's stable id, e.g. "/base/soc/i2c0mux/i2c@1/imx708@1a" */
    const char *model;            /* properties::Model, "" when the camera does not say */
    int location;                 /* nw_cam_location */
    int mounting_rotation;        /* properties::Rotation in degrees, -1 when the camera does not say */
    const nw_cam_format_info *formats;
    size_t format_count;
    nw_cam_size default_size;     /* what the camera proposes for a viewfinder stream (0x0 if none) */
    uint32_t default_fourcc;
    /* FrameDurationLimits range in microseconds; 0/0 when the camera does not list that control
     * (then its frame rate cannot be chosen). */
    int64_t min_frame_duration_us, max_frame_duration_us;
} nw_cam_info;

typedef struct nw_cam_list nw_cam_list;

/* Starts libcamera if needed and takes a snapshot of the cameras and what they offer.
 * libcamera allows one CameraManager per process: it is shared by every list and open camera and
 * stopped when the last of them is freed. NULL + *error (negative errno) when libcamera cannot start. */
nw_cam_list *nw_cam_list_create(int *error);
void nw_cam_list_free(nw_cam_list *list);
size_t nw_cam_list_count(const nw_cam_list *list);
/* Valid until nw_cam_list_free. NULL when index is out of range. */
const nw_cam_info *nw_cam_list_get(const nw_cam_list *list, size_t index);

/* --- one camera */

typedef struct nw_cam nw_cam;

/* Acquires the camera with this id for this process. NULL + *error:
 * -ENODEV: no camera with that id; -EBUSY: another process (or this one) has it; else libcamera's. */
nw_cam *nw_cam_open(const char *id, int *error);
/* Stops streaming, unmaps and frees the buffers, releases the camera. NULL is a no-op. */
void nw_cam_close(nw_cam *cam);
/* For a camera whose device vanished without libcamera noticing (no udev to tell it): stopping it then
 * trips a libcamera assertion (0.0.3: queuedRequests_.empty() in PipelineHandler::stop) and aborts the
 * process. This only unhooks the camera and leaves it, its buffers and libcamera as they are (leaked
 * until the process ends). NULL is a no-op. */
void nw_cam_abandon(nw_cam *cam);

/* A wish for one viewfinder stream. */
typedef struct {
    uint32_t width, height;
    uint32_t fourcc;              /* 0: the camera's choice */
    uint32_t buffer_count;        /* 0: the camera's default */
    bool hflip, vflip;            /* flips wanted, relative to the camera's upright picture */
} nw_cam_config;

/* What the camera will deliver for a wish (after libcamera's validate()). */
typedef struct {
    uint32_t width, height;
    uint32_t stride;              /* bytes between rows of plane 0 */
    uint32_t fourcc;
    uint32_t frame_size;          /* bytes of a whole frame, all planes */
    uint32_t buffer_count;
    bool hflip, vflip;            /* flips the camera itself will apply (it may refuse some) */
    bool adjusted;                /* validate() changed something in the wish */
    char format_name[32];         /* libcamera's name for the pixel format, e.g. "BGR888" */
    char text[96];                /* libcamera's description, e.g. "636x480-BGR888" */
} nw_cam_stream;

/* What the camera would make of the wish, without configuring it. -EINVAL: it cannot be met at all. */
int nw_cam_try(nw_cam *cam, const nw_cam_config *want, nw_cam_stream *got);
/* Configures the camera for the wish (as adjusted), allocates the buffers, maps plane 0 of each once
 * (read-only) and makes one request per buffer. Once per open camera. */
int nw_cam_configure(nw_cam *cam, const nw_cam_config *want, nw_cam_stream *got);
/* Starts streaming and queues every request. frame_duration_us > 0 asks for that fixed frame duration
 * through FrameDurationLimits (-ENOTSUP when the camera does not list the control); 0 leaves it. */
int nw_cam_start(nw_cam *cam, int64_t frame_duration_us);
/* Stops streaming (pending requests are cancelled; held frames are given up). Idempotent. */
void nw_cam_stop(nw_cam *cam);

/* The newest completed frame. Plane 0 is the camera's own mapped buffer: it is valid until the next
 * nw_cam_next / nw_cam_release_frame / nw_cam_stop / nw_cam_close on this camera. */
typedef struct {
    const uint8_t *data;          /* start of plane 0 */
    size_t bytes;                 /* bytes the camera filled in plane 0 */
    size_t mapped_bytes;          /* bytes readable from data */
    uint64_t sequence;            /* the camera's frame counter */
    uint64_t timestamp_ns;        /* sensor timestamp (CLOCK_MONOTONIC domain), 0 when unknown */
} nw_cam_frame;

/* Hands back the frame held (if any), then waits up to timeout_ms for a frame completed after it.
 * Only the newest completed frame is kept: an older one not yet taken is counted as dropped and its
 * buffer goes straight back to the camera, so at most one buffer waits here and one is held.
 * 0, or -ETIMEDOUT (nothing new in time), -ENODEV (the camera was disconnected), -ESHUTDOWN (not streaming). */
int nw_cam_next(nw_cam *cam, int timeout_ms, nw_cam_frame *out);
/* Hands back the frame held, if any. */
void nw_cam_release_frame(nw_cam *cam);

typedef struct {
    uint64_t completed;           /* frames the camera completed successfully */
    uint64_t taken;               /* frames handed out by nw_cam_next */
    uint64_t dropped;             /* completed frames replaced by a newer one before anyone took them */
    uint64_t failed;              /* frames the camera completed with an error (not handed out) */
} nw_cam_counters;

void nw_cam_get_counters(nw_cam *cam, nw_cam_counters *out);
/* True once libcamera has reported the camera disconnected. */
bool nw_cam_disconnected(nw_cam *cam);

#ifdef __cplusplus
}
#endif

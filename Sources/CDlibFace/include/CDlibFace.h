// A thin C API over dlib's face detector and the landmark model file.
// Everything that is not dlib itself (scheduling, tracking, the landmark cascade, head pose) lives in Swift.
#ifndef CDLIBFACE_H
#define CDLIBFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A face box in image pixels; `score` is the detector's confidence (higher is surer; 0 is its threshold).
typedef struct nw_box {
    float left, top, right, bottom;
    float score;
} nw_box;

typedef struct nw_detector nw_detector;

/// dlib's HOG frontal face detector (built into dlib, no model file). Returns NULL only when out of memory.
nw_detector *nw_detector_create(void);
void nw_detector_destroy(nw_detector *detector);

/// Finds faces in a region of an 8-bit grey image, resampled by `scale` first (0.5 halves it: quicker, only
/// bigger faces; 1.5 enlarges it: slower, finds smaller ones). `max_levels` caps the image pyramid
/// (0 keeps dlib's default), which bounds the largest face found. Boxes come back in full-image pixels,
/// best first. Returns the number written (at most `capacity`), or -1 if the arguments are invalid.
int nw_detect(nw_detector *detector, const uint8_t *pixels, int width, int height, int stride,
              int roi_x, int roi_y, int roi_width, int roi_height, float scale, int max_levels,
              nw_box *out, int capacity);

/// A dlib shape-predictor model (an ensemble of regression trees) flattened into plain arrays,
/// so the cascade can run in Swift without allocating. Arrays are owned by the struct.
typedef struct nw_shape_model {
    int num_parts;          ///< landmarks (5 for the 5-point model)
    int num_cascades;       ///< cascade levels
    int trees_per_cascade;
    int tree_depth;         ///< every tree is complete: 2^depth - 1 splits, 2^depth leaves
    int features_per_cascade; ///< feature pixels sampled per cascade level
    float *initial_shape;   ///< num_parts * 2, in the unit box
    // per cascade level c, feature i: anchor landmark and offset in the unit box
    int32_t *anchor;        ///< num_cascades * features_per_cascade
    float *delta;           ///< num_cascades * features_per_cascade * 2
    // per tree t (cascade-major), split s (heap order): two feature indices and a threshold
    int32_t *split_a;       ///< num_cascades * trees_per_cascade * (2^depth - 1)
    int32_t *split_b;
    float *split_threshold;
    float *leaf;            ///< num_cascades * trees_per_cascade * 2^depth * num_parts * 2
} nw_shape_model;

/// Reads a dlib shape predictor file (e.g. shape_predictor_5_face_landmarks.dat). On failure returns NULL
/// and writes a message for people into `error` (at most `error_capacity` bytes, NUL-terminated).
nw_shape_model *nw_shape_model_load(const char *path, char *error, size_t error_capacity);
void nw_shape_model_free(nw_shape_model *model);

/// dlib's own landmark fit (allocates; for tests that check the Swift cascade against the reference).
/// Writes num_parts (x, y) pairs into `out`. Returns 0, or -1 if the model cannot be read.
int nw_shape_reference_fit(const char *model_path, const uint8_t *pixels, int width, int height, int stride,
                           nw_box box, float *out, int out_capacity);

#ifdef __cplusplus
}
#endif

#endif

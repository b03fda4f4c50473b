/* CGPIOD: Nodwire's thin C binding to libgpiod, one API over libgpiod v1 (1.6.x: Debian 12,
 * Raspberry Pi OS bookworm) and v2 (2.x: Debian 13 / Pi OS trixie). The version is chosen at compile time
 * from <gpiod.h> (only v1 defines GPIOD_LINE_BULK_MAX_LINES). This header does not include <gpiod.h>, so
 * Swift sees the same types on both. Every call that can fail returns NULL or -1 and leaves errno set.
 * No policy lives here (chip/line lookup by name or label, safe values, messages): that is Swift's. */
#pragma once
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NW_GPIO_NAME_MAX 64

typedef enum { NW_GPIO_DIRECTION_INPUT = 0, NW_GPIO_DIRECTION_OUTPUT = 1 } nw_gpio_direction;
typedef enum {
    NW_GPIO_DRIVE_PUSH_PULL = 0, NW_GPIO_DRIVE_OPEN_DRAIN = 1, NW_GPIO_DRIVE_OPEN_SOURCE = 2
} nw_gpio_drive;
typedef enum {
    NW_GPIO_BIAS_AS_IS = 0, NW_GPIO_BIAS_DISABLED = 1, NW_GPIO_BIAS_PULL_UP = 2, NW_GPIO_BIAS_PULL_DOWN = 3,
    NW_GPIO_BIAS_UNKNOWN = 4 /* only reported by line info */
} nw_gpio_bias;

typedef struct nw_gpio_chip nw_gpio_chip;
typedef struct nw_gpio_output nw_gpio_output;

typedef struct {
    char name[NW_GPIO_NAME_MAX];   /* "gpiochip0" */
    char label[NW_GPIO_NAME_MAX];  /* "pinctrl-bcm2711", "gpio-sim.0-node0" */
    unsigned int num_lines;
} nw_gpio_chip_info;

typedef struct {
    char name[NW_GPIO_NAME_MAX];      /* "" when the line has no name */
    char consumer[NW_GPIO_NAME_MAX];  /* "" when unused or the holder gave no label */
    int direction;                    /* nw_gpio_direction */
    int drive;                        /* nw_gpio_drive */
    int bias;                         /* nw_gpio_bias */
    bool active_low;
    bool used;
} nw_gpio_line_info;

/* 1 or 2 (compile-time choice) and the run-time library version string. */
int nw_gpiod_api_major(void);
const char *nw_gpiod_version(void);

/* Open a chip by device path ("/dev/gpiochip0"). NULL + errno (ENOENT, EACCES, ENODEV...). */
nw_gpio_chip *nw_gpio_chip_open(const char *path);
void nw_gpio_chip_close(nw_gpio_chip *chip);
int nw_gpio_chip_get_info(nw_gpio_chip *chip, nw_gpio_chip_info *out);
/* Current state of one line (re-read from the kernel). -1 + errno (EINVAL: offset out of range). */
int nw_gpio_line_get_info(nw_gpio_chip *chip, unsigned int offset, nw_gpio_line_info *out);

/* Request one line as output, consumer label "nodwire". `initial` is the logical value (active_low
 * applied by the kernel). drive: nw_gpio_drive; bias: nw_gpio_bias (not UNKNOWN). The request stays
 * valid only while `chip` is open. NULL + errno (EBUSY: held by someone else, EINVAL/EOPNOTSUPP:
 * settings the kernel or driver refuses, EACCES/EPERM). */
nw_gpio_output *nw_gpio_request_output(nw_gpio_chip *chip, unsigned int offset, int initial,
                                       bool active_low, int drive, int bias);
/* Logical value 0/1. 0 or -1 + errno. */
int nw_gpio_output_set(nw_gpio_output *out, int value);
/* Logical value 0/1 or -1 + errno. */
int nw_gpio_output_get(nw_gpio_output *out);
/* Gives the line back to the kernel (what the pin then does is up to the driver). NULL is a no-op. */
void nw_gpio_output_release(nw_gpio_output *out);

#ifdef __cplusplus
}
#endif

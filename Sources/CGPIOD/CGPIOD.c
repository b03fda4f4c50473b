/* See include/CGPIOD.h. The only file in Nodwire that knows which libgpiod generation it is built for. */
#include "CGPIOD.h"
#include <gpiod.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NW_CONSUMER "nodwire"

static void copy_str(char dst[NW_GPIO_NAME_MAX], const char *src)
{
    dst[0] = '\0';
    if (!src) return;
    strncpy(dst, src, NW_GPIO_NAME_MAX - 1);
    dst[NW_GPIO_NAME_MAX - 1] = '\0';
}

static int valid_settings(int drive, int bias)
{
    if (drive < NW_GPIO_DRIVE_PUSH_PULL || drive > NW_GPIO_DRIVE_OPEN_SOURCE) return 0;
    if (bias < NW_GPIO_BIAS_AS_IS || bias > NW_GPIO_BIAS_PULL_DOWN) return 0;
    return 1;
}

#ifdef GPIOD_LINE_BULK_MAX_LINES
/* ------------------------------------------------------------------ libgpiod v1 (1.5 / 1.6) */
struct nw_gpio_chip { struct gpiod_chip *chip; };
struct nw_gpio_output { struct gpiod_line *line; };

int nw_gpiod_api_major(void) { return 1; }
const char *nw_gpiod_version(void) { return gpiod_version_string(); }

nw_gpio_chip *nw_gpio_chip_open(const char *path)
{
    struct gpiod_chip *c = gpiod_chip_open(path);
    if (!c) return NULL;
    nw_gpio_chip *h = calloc(1, sizeof(*h));
    if (!h) { gpiod_chip_close(c); errno = ENOMEM; return NULL; }
    h->chip = c;
    return h;
}

void nw_gpio_chip_close(nw_gpio_chip *h)
{
    if (!h) return;
    gpiod_chip_close(h->chip);
    free(h);
}

int nw_gpio_chip_get_info(nw_gpio_chip *h, nw_gpio_chip_info *out)
{
    if (!h || !out) { errno = EINVAL; return -1; }
    copy_str(out->name, gpiod_chip_name(h->chip));
    copy_str(out->label, gpiod_chip_label(h->chip));
    out->num_lines = gpiod_chip_num_lines(h->chip);
    return 0;
}

int nw_gpio_line_get_info(nw_gpio_chip *h, unsigned int offset, nw_gpio_line_info *out)
{
    if (!h || !out) { errno = EINVAL; return -1; }
    struct gpiod_line *l = gpiod_chip_get_line(h->chip, offset);  /* EINVAL when out of range */
    if (!l) return -1;
    if (gpiod_line_update(l) < 0) return -1;
    copy_str(out->name, gpiod_line_name(l));
    copy_str(out->consumer, gpiod_line_consumer(l));
    out->direction = gpiod_line_direction(l) == GPIOD_LINE_DIRECTION_OUTPUT
                     ? NW_GPIO_DIRECTION_OUTPUT : NW_GPIO_DIRECTION_INPUT;
    out->drive = gpiod_line_is_open_drain(l) ? NW_GPIO_DRIVE_OPEN_DRAIN
               : gpiod_line_is_open_source(l) ? NW_GPIO_DRIVE_OPEN_SOURCE : NW_GPIO_DRIVE_PUSH_PULL;
    switch (gpiod_line_bias(l)) {
    case GPIOD_LINE_BIAS_DISABLE:   out->bias = NW_GPIO_BIAS_DISABLED; break;
    case GPIOD_LINE_BIAS_PULL_UP:   out->bias = NW_GPIO_BIAS_PULL_UP; break;
    case GPIOD_LINE_BIAS_PULL_DOWN: out->bias = NW_GPIO_BIAS_PULL_DOWN; break;
    default:                        out->bias = NW_GPIO_BIAS_UNKNOWN; break;  /* v1 says AS_IS: unknown */
    }
    out->active_low = gpiod_line_active_state(l) == GPIOD_LINE_ACTIVE_STATE_LOW;
    out->used = gpiod_line_is_used(l);
    return 0;
}

nw_gpio_output *nw_gpio_request_output(nw_gpio_chip *h, unsigned int offset, int initial,
                                       bool active_low, int drive, int bias)
{
    if (!h || !valid_settings(drive, bias)) { errno = EINVAL; return NULL; }
    struct gpiod_line *l = gpiod_chip_get_line(h->chip, offset);
    if (!l) return NULL;
    int flags = 0;
    if (active_low) flags |= GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW;
    if (drive == NW_GPIO_DRIVE_OPEN_DRAIN) flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN;
    if (drive == NW_GPIO_DRIVE_OPEN_SOURCE) flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_SOURCE;
    if (bias == NW_GPIO_BIAS_DISABLED) flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    if (bias == NW_GPIO_BIAS_PULL_UP) flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    if (bias == NW_GPIO_BIAS_PULL_DOWN) flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    struct gpiod_line_request_config cfg = {
        .consumer = NW_CONSUMER, .request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT, .flags = flags,
    };
    if (gpiod_line_request(l, &cfg, initial ? 1 : 0) < 0) return NULL;
    nw_gpio_output *o = calloc(1, sizeof(*o));
    if (!o) { gpiod_line_release(l); errno = ENOMEM; return NULL; }
    o->line = l;
    return o;
}

int nw_gpio_output_set(nw_gpio_output *o, int value)
{
    if (!o) { errno = EINVAL; return -1; }
    return gpiod_line_set_value(o->line, value ? 1 : 0);
}

int nw_gpio_output_get(nw_gpio_output *o)
{
    if (!o) { errno = EINVAL; return -1; }
    return gpiod_line_get_value(o->line);
}

void nw_gpio_output_release(nw_gpio_output *o)
{
    if (!o) return;
    gpiod_line_release(o->line);
    free(o);
}

#else
/* ------------------------------------------------------------------ libgpiod v2 (2.x) */
struct nw_gpio_chip { struct gpiod_chip *chip; };
struct nw_gpio_output { struct gpiod_line_request *req; unsigned int offset; };

int nw_gpiod_api_major(void) { return 2; }
const char *nw_gpiod_version(void) { return gpiod_api_version(); }

nw_gpio_chip *nw_gpio_chip_open(const char *path)
{
    struct gpiod_chip *c = gpiod_chip_open(path);
    if (!c) return NULL;
    nw_gpio_chip *h = calloc(1, sizeof(*h));
    if (!h) { gpiod_chip_close(c); errno = ENOMEM; return NULL; }
    h->chip = c;
    return h;
}

void nw_gpio_chip_close(nw_gpio_chip *h)
{
    if (!h) return;
    gpiod_chip_close(h->chip);
    free(h);
}

int nw_gpio_chip_get_info(nw_gpio_chip *h, nw_gpio_chip_info *out)
{
    if (!h || !out) { errno = EINVAL; return -1; }
    struct gpiod_chip_info *ci = gpiod_chip_get_info(h->chip);
    if (!ci) return -1;
    copy_str(out->name, gpiod_chip_info_get_name(ci));
    copy_str(out->label, gpiod_chip_info_get_label(ci));
    out->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(ci);
    gpiod_chip_info_free(ci);
    return 0;
}

int nw_gpio_line_get_info(nw_gpio_chip *h, unsigned int offset, nw_gpio_line_info *out)
{
    if (!h || !out) { errno = EINVAL; return -1; }
    struct gpiod_line_info *li = gpiod_chip_get_line_info(h->chip, offset);
    if (!li) return -1;
    copy_str(out->name, gpiod_line_info_get_name(li));
    copy_str(out->consumer, gpiod_line_info_get_consumer(li));
    out->direction = gpiod_line_info_get_direction(li) == GPIOD_LINE_DIRECTION_OUTPUT
                     ? NW_GPIO_DIRECTION_OUTPUT : NW_GPIO_DIRECTION_INPUT;
    switch (gpiod_line_info_get_drive(li)) {
    case GPIOD_LINE_DRIVE_OPEN_DRAIN:  out->drive = NW_GPIO_DRIVE_OPEN_DRAIN; break;
    case GPIOD_LINE_DRIVE_OPEN_SOURCE: out->drive = NW_GPIO_DRIVE_OPEN_SOURCE; break;
    default:                           out->drive = NW_GPIO_DRIVE_PUSH_PULL; break;
    }
    switch (gpiod_line_info_get_bias(li)) {
    case GPIOD_LINE_BIAS_DISABLED:  out->bias = NW_GPIO_BIAS_DISABLED; break;
    case GPIOD_LINE_BIAS_PULL_UP:   out->bias = NW_GPIO_BIAS_PULL_UP; break;
    case GPIOD_LINE_BIAS_PULL_DOWN: out->bias = NW_GPIO_BIAS_PULL_DOWN; break;
    default:                        out->bias = NW_GPIO_BIAS_UNKNOWN; break;
    }
    out->active_low = gpiod_line_info_is_active_low(li);
    out->used = gpiod_line_info_is_used(li);
    gpiod_line_info_free(li);
    return 0;
}

nw_gpio_output *nw_gpio_request_output(nw_gpio_chip *h, unsigned int offset, int initial,
                                       bool active_low, int drive, int bias)
{
    if (!h || !valid_settings(drive, bias)) { errno = EINVAL; return NULL; }
    static const enum gpiod_line_drive drives[] = {
        GPIOD_LINE_DRIVE_PUSH_PULL, GPIOD_LINE_DRIVE_OPEN_DRAIN, GPIOD_LINE_DRIVE_OPEN_SOURCE };
    static const enum gpiod_line_bias biases[] = {
        GPIOD_LINE_BIAS_AS_IS, GPIOD_LINE_BIAS_DISABLED, GPIOD_LINE_BIAS_PULL_UP, GPIOD_LINE_BIAS_PULL_DOWN };
    struct gpiod_line_settings *s = gpiod_line_settings_new();
    struct gpiod_line_config *lc = gpiod_line_config_new();
    struct gpiod_request_config *rc = gpiod_request_config_new();
    struct gpiod_line_request *r = NULL;
    int err = ENOMEM;
    if (s && lc && rc) {
        err = 0;
        if (gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_OUTPUT) < 0 ||
            gpiod_line_settings_set_drive(s, drives[drive]) < 0 ||
            gpiod_line_settings_set_bias(s, biases[bias]) < 0 ||
            gpiod_line_settings_set_output_value(s, initial ? GPIOD_LINE_VALUE_ACTIVE
                                                            : GPIOD_LINE_VALUE_INACTIVE) < 0)
            err = errno ? errno : EINVAL;
        gpiod_line_settings_set_active_low(s, active_low);
        gpiod_request_config_set_consumer(rc, NW_CONSUMER);
        if (!err && gpiod_line_config_add_line_settings(lc, &offset, 1, s) < 0) err = errno;
        if (!err) {
            r = gpiod_chip_request_lines(h->chip, rc, lc);
            if (!r) err = errno;
        }
    }
    gpiod_line_settings_free(s);
    gpiod_line_config_free(lc);
    gpiod_request_config_free(rc);
    if (!r) { errno = err ? err : EIO; return NULL; }
    nw_gpio_output *o = calloc(1, sizeof(*o));
    if (!o) { gpiod_line_request_release(r); errno = ENOMEM; return NULL; }
    o->req = r;
    o->offset = offset;
    return o;
}

int nw_gpio_output_set(nw_gpio_output *o, int value)
{
    if (!o) { errno = EINVAL; return -1; }
    return gpiod_line_request_set_value(o->req, o->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

int nw_gpio_output_get(nw_gpio_output *o)
{
    if (!o) { errno = EINVAL; return -1; }
    enum gpiod_line_value v = gpiod_line_request_get_value(o->req, o->offset);
    if (v == GPIOD_LINE_VALUE_ERROR) return -1;
    return v == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

void nw_gpio_output_release(nw_gpio_output *o)
{
    if (!o) return;
    gpiod_line_request_release(o->req);
    free(o);
}
#endif

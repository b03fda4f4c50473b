// libjpeg-turbo's TurboJPEG API (Debian libturbojpeg0-dev): the setup page's live picture as JPEG.
#include <turbojpeg.h>

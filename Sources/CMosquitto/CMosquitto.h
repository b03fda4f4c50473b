// libmosquitto (Debian libmosquitto-dev), the MQTT client the appliance uses: nothing of its own here.
#include <mosquitto.h>

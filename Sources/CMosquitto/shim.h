#include <stdbool.h>
#include <mosquitto.h>

/* The protocol version constants are macros, which import as Int32 values already; nothing else needs a shim:
   every libmosquitto call the client makes (mosquitto_new, _connect_async, _loop, _publish, _disconnect and the
   callback setters) is an ordinary, non-variadic function. */

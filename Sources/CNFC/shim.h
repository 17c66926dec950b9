#include <nfc/nfc.h>
#include <stddef.h>
#include <stdint.h>

/* Exported by libnfc.so.6 but declared only in its private chips/pn53x.h (libnfc's own pn53x-*
   utilities call it): ReadRegister 06 of one PN53x register, after libnfc's queued writes. */
int pn53x_read_register(struct nfc_device *pnd, uint16_t ui16Reg, uint8_t *ui8Value);

/* Exported by libnfc.so.6, declared only in chips/pn53x.h (libnfc's pn53x-tamashell uses it):
   sends one PN53x command (without the D4 TFI) and returns the reply data after the response
   code; a status byte the command reports is mapped to libnfc's error codes. */
int pn53x_transceive(struct nfc_device *pnd, const uint8_t *pbtTx, const size_t szTx, uint8_t *pbtRx,
                     const size_t szRxLen, int timeout);

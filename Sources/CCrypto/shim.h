/* The originality signature (secp128r1, docs/reference/type2.md §3.8) needs the EC_KEY/ECDSA_do_* API that
   OpenSSL 3 marks deprecated; keep it usable without warnings. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/obj_mac.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/cmac.h>

/*
 * A PKCS#11 module that forwards every call to another one (SoftHSM2), except that C_Sign blocks
 * while the file named by HANGING_PKCS11_WHILE exists: a token that stops answering mid-signature,
 * the calling thread held inside the library. HANGING_PKCS11_TARGET names the real module.
 * Built by hanging-module.ts with the system compiler against p11-kit's pkcs11.h.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <p11-kit/pkcs11.h>

static CK_FUNCTION_LIST forwarded;
static CK_FUNCTION_LIST_PTR target;

static int hanging(void) {
  const char *file = getenv("HANGING_PKCS11_WHILE");
  struct stat st;
  return file != NULL && stat(file, &st) == 0;
}

static CK_RV hanging_sign(CK_SESSION_HANDLE session, CK_BYTE_PTR data, CK_ULONG data_len, CK_BYTE_PTR signature, CK_ULONG_PTR signature_len) {
  while (hanging()) usleep(5000);
  return target->C_Sign(session, data, data_len, signature, signature_len);
}

CK_RV C_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list) {
  if (target == NULL) {
    const char *path = getenv("HANGING_PKCS11_TARGET");
    void *library = path == NULL ? NULL : dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return CKR_GENERAL_ERROR;
    CK_C_GetFunctionList get = (CK_C_GetFunctionList)dlsym(library, "C_GetFunctionList");
    if (get == NULL) return CKR_GENERAL_ERROR;
    CK_RV rv = get(&target);
    if (rv != CKR_OK) return rv;
    forwarded = *target;
    forwarded.C_GetFunctionList = C_GetFunctionList;
    forwarded.C_Sign = hanging_sign;
  }
  *list = &forwarded;
  return CKR_OK;
}

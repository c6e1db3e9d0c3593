/* The hash chain of a log checked in one compiled loop (gametape.events.chainloop).
 *
 * held(lines) -> int: how many of the leading lines carry their chain hash, as
 * gametape.events.codec.chain defines it: the first 32 hex digits of SHA-256 over the
 * previous line's hash (empty before the first line) and the bytes of this line before
 * ,"hash":"  The field is the line's last, of fixed length:  ,"hash":"<32 hex>"}
 * chainloop.held_py is the same function in Python, and the tests hold the two equal.
 * SHA-256 is OpenSSL's, the library Python's own hashlib uses.
 */
#define PY_SSIZE_T_CLEAN
#define OPENSSL_SUPPRESS_DEPRECATED
#include <Python.h>
#include <string.h>
#include <openssl/sha.h>

#define MARK ",\"hash\":\""
#define MARK_LEN 9
#define HEX 32
#define FIELD (MARK_LEN + HEX + 2)

static const char DIGITS[] = "0123456789abcdef";

static PyObject *held(PyObject *self, PyObject *lines) {
    if (!PyList_Check(lines)) {
        PyErr_SetString(PyExc_TypeError, "held() takes a list of bytes");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(lines);
    char prev[HEX];
    size_t prev_len = 0;
    unsigned char digest[SHA256_DIGEST_LENGTH];
    char hex[HEX];
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(lines, i);
        if (!PyBytes_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "held() takes a list of bytes");
            return NULL;
        }
        const char *line = PyBytes_AS_STRING(item);
        Py_ssize_t len = PyBytes_GET_SIZE(item);
        Py_ssize_t cut = len - FIELD;
        if (cut < 0 || memcmp(line + cut, MARK, MARK_LEN) != 0) break;
        SHA256_CTX ctx;
        SHA256_Init(&ctx);
        SHA256_Update(&ctx, prev, prev_len);
        SHA256_Update(&ctx, line, (size_t)cut);
        SHA256_Final(digest, &ctx);
        for (int k = 0; k < HEX / 2; k++) {
            hex[2 * k] = DIGITS[digest[k] >> 4];
            hex[2 * k + 1] = DIGITS[digest[k] & 15];
        }
        if (memcmp(hex, line + cut + MARK_LEN, HEX) != 0) break;
        memcpy(prev, hex, HEX);
        prev_len = HEX;
    }
    return PyLong_FromSsize_t(i);
}

static PyMethodDef methods[] = {
    {"held", held, METH_O, "How many leading lines of a log carry their chain hash."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_chain", "A log's hash chain checked in one compiled loop.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__chain(void) { return PyModule_Create(&module); }

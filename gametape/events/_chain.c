/* The hash chain of a log in one compiled loop (gametape.events.chainloop).
 *
 * The chain hash of a line, as gametape.events.codec.chain defines it, is the first 32 hex
 * digits of SHA-256 over the previous line's hash (empty before the first line) and the
 * bytes of this line before ,"hash":"  The field is the line's last, of fixed length:
 * ,"hash":"<32 hex>"}
 *
 * held(data) -> int: how many of the leading lines of a log's bytes carry their chain hash
 * (a line ends in a newline: a torn tail after the last one is none).
 * sealed(prev, bodies) -> (bytes, str): each body with its hash field and a newline, after
 * the line whose hash is prev; and the last hash.
 * chainloop.held_py and sealed_py are the same functions in Python, and the tests hold
 * each pair equal. SHA-256 is OpenSSL's, the library Python's own hashlib uses.
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

/* The chain hash of body after prev, as 32 lower-case hex digits into hex. */
static void hash_of(const char *prev, size_t prev_len, const char *body, size_t len,
                    char *hex) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, prev, prev_len);
    SHA256_Update(&ctx, body, len);
    SHA256_Final(digest, &ctx);
    for (int k = 0; k < HEX / 2; k++) {
        hex[2 * k] = DIGITS[digest[k] >> 4];
        hex[2 * k + 1] = DIGITS[digest[k] & 15];
    }
}

static PyObject *held(PyObject *self, PyObject *data) {
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "held() takes a log's bytes");
        return NULL;
    }
    const char *at = PyBytes_AS_STRING(data);
    const char *end = at + PyBytes_GET_SIZE(data);
    char prev[HEX];
    size_t prev_len = 0;
    char hex[HEX];
    Py_ssize_t i = 0;
    for (;;) {
        const char *nl = memchr(at, '\n', (size_t)(end - at));
        if (nl == NULL) break; /* the rest is no line: empty, or a torn tail */
        Py_ssize_t cut = (nl - at) - FIELD;
        if (cut < 0 || memcmp(at + cut, MARK, MARK_LEN) != 0) break;
        hash_of(prev, prev_len, at, (size_t)cut, hex);
        if (memcmp(hex, at + cut + MARK_LEN, HEX) != 0) break;
        memcpy(prev, hex, HEX);
        prev_len = HEX;
        i++;
        at = nl + 1;
    }
    return PyLong_FromSsize_t(i);
}

static PyObject *sealed(PyObject *self, PyObject *args) {
    const char *prev_in;
    Py_ssize_t prev_len;
    PyObject *bodies;
    if (!PyArg_ParseTuple(args, "y#O!:sealed", &prev_in, &prev_len, &PyList_Type, &bodies))
        return NULL;
    if (prev_len != 0 && prev_len != HEX) {
        PyErr_SetString(PyExc_ValueError, "sealed() takes a previous hash of 0 or 32 bytes");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(bodies), size = 0, i;
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(bodies, i);
        if (!PyBytes_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "sealed() takes a list of bytes");
            return NULL;
        }
        size += PyBytes_GET_SIZE(item) + FIELD + 1;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, size);
    if (out == NULL) return NULL;
    char *at = PyBytes_AS_STRING(out);
    char prev[HEX];
    size_t prev_size = (size_t)prev_len;
    memcpy(prev, prev_in, prev_size);
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(bodies, i);
        Py_ssize_t len = PyBytes_GET_SIZE(item);
        memcpy(at, PyBytes_AS_STRING(item), (size_t)len);
        hash_of(prev, prev_size, at, (size_t)len, prev);
        prev_size = HEX;
        at += len;
        memcpy(at, MARK, MARK_LEN);
        memcpy(at + MARK_LEN, prev, HEX);
        memcpy(at + MARK_LEN + HEX, "\"}\n", 3);
        at += FIELD + 1;
    }
    return Py_BuildValue("(Ns#)", out, prev, (Py_ssize_t)prev_size);
}

static PyMethodDef methods[] = {
    {"held", held, METH_O, "How many leading lines of a log's bytes carry their chain hash."},
    {"sealed", sealed, METH_VARARGS, "Bodies sealed into log lines, after the hash prev."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_chain", "A log's hash chain in one compiled loop: held, sealed.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__chain(void) { return PyModule_Create(&module); }

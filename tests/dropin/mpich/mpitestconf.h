/* Stand-in for the configuration header that MPICH's test suite generates with its configure
 * script (include/mpitestconf.h), for building some of its tests against this machine's MPI
 * (Debian 12, x86-64, gcc, OpenMPI) without running that script: tests/dropin/mpich_conformance.sh.
 * Written for this project; only the settings those tests read are defined. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED

/* C99 headers and functions of glibc. */
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STDARG_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_PTHREAD_H 1
#define HAVE_DLFCN_H 1
#define HAVE_STRDUP 1
#define HAVE_USLEEP 1
#define HAVE_GETRUSAGE 1
#define STDC_HEADERS 1

/* The C types of gcc on x86-64 Linux. */
#define HAVE_LONG_LONG 1
#define HAVE_LONG_DOUBLE 1
#define HAVE__BOOL 1
#define HAVE_FLOAT__COMPLEX 1
#define HAVE_DOUBLE__COMPLEX 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define SIZEOF_SHORT 2
#define SIZEOF_INT 4
#define SIZEOF_LONG 8
#define SIZEOF_LONG_LONG 8
#define SIZEOF_VOID_P 8
#define SIZEOF_MPI_OFFSET 8
#define POINTERINT_t long

/* What the MPI library offers: MPI-3.1 with one-sided communication; no Fortran, C++ bindings,
 * GPU memory or threads package are used by the tests built here. */
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_SPAWN 1
#define HAVE_MPI_IO 1

/* Only what the MPI standard defines (no MPICH extensions, MPIX_*). */
#define USE_STRICT_MPI 1

#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE

#endif /* MPITESTCONF_H_INCLUDED */

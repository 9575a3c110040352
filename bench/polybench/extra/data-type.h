/* data-type.h: DATA_TYPE from PolyBench/C 4.2.1's switches (DATA_TYPE_IS_INT, _FLOAT,
   _DOUBLE; double by default), for the headers of bench/polybench/extra's programs. */
#ifndef _EXTRA_DATA_TYPE_H
# define _EXTRA_DATA_TYPE_H

# if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) && !defined(DATA_TYPE_IS_DOUBLE)
#  define DATA_TYPE_IS_DOUBLE
# endif

# ifdef DATA_TYPE_IS_INT
#  define DATA_TYPE int
#  define DATA_PRINTF_MODIFIER "%d "
#  define SCALAR_VAL(x) x
# endif

# ifdef DATA_TYPE_IS_FLOAT
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%0.2f "
#  define SCALAR_VAL(x) x##f
# endif

# ifdef DATA_TYPE_IS_DOUBLE
#  define DATA_TYPE double
#  define DATA_PRINTF_MODIFIER "%0.2lf "
#  define SCALAR_VAL(x) x
# endif

#endif

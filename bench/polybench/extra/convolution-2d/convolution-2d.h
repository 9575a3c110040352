/* convolution-2d.h: sizes and data type of convolution-2d.c (bench/polybench/extra/README.md), in the
   layout of PolyBench/C 4.2.1's headers: one block of sizes per dataset, LARGE by default
   (PolyBench-ACC's LARGE sizes), the same DATA_TYPE_IS_* switches. */
#ifndef _CONVOLUTION_2D_H
# define _CONVOLUTION_2D_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(NI) && !defined(NJ)
#  ifdef MINI_DATASET
#   define NI 37
#   define NJ 41
#  endif
#  ifdef SMALL_DATASET
#   define NI 121
#   define NJ 139
#  endif
#  ifdef MEDIUM_DATASET
#   define NI 1000
#   define NJ 1200
#  endif
#  ifdef LARGE_DATASET
#   define NI 8192
#   define NJ 8192
#  endif
#  ifdef EXTRALARGE_DATASET
#   define NI 16384
#   define NJ 16384
#  endif
# endif

# define _PB_NI POLYBENCH_LOOP_BOUND(NI,ni)
# define _PB_NJ POLYBENCH_LOOP_BOUND(NJ,nj)

# include "data-type.h"  /* bench/polybench/extra, an include folder of run.py's config */

#endif

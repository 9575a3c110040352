/* convolution-3d.h: sizes and data type of convolution-3d.c (bench/polybench/extra/README.md), in the
   layout of PolyBench/C 4.2.1's headers: one block of sizes per dataset, LARGE by default
   (PolyBench-ACC's LARGE sizes), the same DATA_TYPE_IS_* switches. */
#ifndef _CONVOLUTION_3D_H
# define _CONVOLUTION_3D_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(NI) && !defined(NJ) && !defined(NK)
#  ifdef MINI_DATASET
#   define NI 17
#   define NJ 19
#   define NK 23
#  endif
#  ifdef SMALL_DATASET
#   define NI 41
#   define NJ 43
#   define NK 47
#  endif
#  ifdef MEDIUM_DATASET
#   define NI 128
#   define NJ 128
#   define NK 128
#  endif
#  ifdef LARGE_DATASET
#   define NI 384
#   define NJ 384
#   define NK 384
#  endif
#  ifdef EXTRALARGE_DATASET
#   define NI 512
#   define NJ 512
#   define NK 512
#  endif
# endif

# define _PB_NI POLYBENCH_LOOP_BOUND(NI,ni)
# define _PB_NJ POLYBENCH_LOOP_BOUND(NJ,nj)
# define _PB_NK POLYBENCH_LOOP_BOUND(NK,nk)

# include "data-type.h"  /* bench/polybench/extra, an include folder of run.py's config */

#endif

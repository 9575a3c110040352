// Tuning parameters of kernel 'prog_2'.
#pragma once
#ifndef PROG_2_BLOCKSIZE
#define PROG_2_BLOCKSIZE 256
#endif

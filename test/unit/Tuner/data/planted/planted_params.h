// Tuning parameters of kernel 'planted'.
#pragma once

// BLOCKSIZE: search space 32, 64, 96, 128, 160, 256
#ifndef PLANTED_BLOCKSIZE
#define PLANTED_BLOCKSIZE 256
#endif

/* CBLAS (OpenBLAS, 32-bit integers) and Fortran LAPACK, declared here so that no header
   is needed; link with -lopenblas. */
enum { CblasColMajor = 102 };
enum { CblasNoTrans = 111, CblasTrans = 112 };
enum { CblasUpper = 121, CblasLower = 122 };
enum { CblasNonUnit = 131, CblasUnit = 132 };
enum { CblasLeft = 141, CblasRight = 142 };
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dsymm(int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dsyrk(int, int, int, int, int, double, const double *, int, double, double *, int);
void cblas_dtrmm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
void cblas_dtrsm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
void cblas_dgemv(int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dsymv(int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dtrmv(int, int, int, int, int, const double *, int, double *, int);
void cblas_dtrsv(int, int, int, int, int, const double *, int, double *, int);
void cblas_dger(int, int, int, double, const double *, int, const double *, int, double *, int);
double cblas_ddot(int, const double *, int, const double *, int);
void cblas_daxpy(int, double, const double *, int, double *, int);
void cblas_dscal(int, double, double *, int);
void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dtrtri_(const char *, const char *, const int *, double *, const int *, int *, size_t, size_t);
void dlauum_(const char *, const int *, double *, const int *, int *, size_t);
void openblas_set_num_threads(int);
void dgeqrf_(const int *, const int *, double *, const int *, double *, double *, const int *, int *);
void dormqr_(const char *, const char *, const int *, const int *, const int *, const double *, const int *, const double *, double *, const int *, double *, const int *, int *, size_t, size_t);
void dsyev_(const char *, const char *, const int *, double *, const int *, double *, double *, const int *, int *, size_t, size_t);
void dgesvd_(const char *, const char *, const int *, const int *, double *, const int *, double *, double *, const int *, double *, const int *, double *, const int *, int *, size_t, size_t);

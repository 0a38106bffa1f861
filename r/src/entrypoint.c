/* The package's routine registration lives in the Rust library (extendr_module!): forward
 * R's call for it there, which also keeps the linker from dropping the static library. */
void R_init_dptest_extendr(void *dll);

void R_init_dptest(void *dll) {
    R_init_dptest_extendr(dll);
}

/* A shared library of the project's own, found through its RUNPATH: no package owns it. */
int packages_fixture_answer(void);

int packages_fixture_answer(void)
{
	return 42;
}

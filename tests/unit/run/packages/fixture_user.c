/* An executable that loads the project's own shared library (and, through it, the C library). */
int packages_fixture_answer(void);

int main(void)
{
	return packages_fixture_answer() == 42 ? 0 : 1;
}

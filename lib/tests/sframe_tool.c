// SPDX-License-Identifier: GPL-2.0
/*
 * Standalone driver for `dunwind sframe` (user/sframe_cmd.c) used by the
 * lib tests until the command is wired into the dunwind binary:
 *   sframe_tool dump|find|encode ARGS...  ==  dunwind sframe dump|find|encode ARGS...
 */
int dw_cmd_sframe(int argc, char **argv);

int main(int argc, char **argv)
{
	return dw_cmd_sframe(argc, argv);
}

# SPDX-License-Identifier: GPL-2.0
# dunwind: the human front end.  Kbuild variables live in ./Kbuild.
#
#   make            module (kmod/dunwind.ko) and user tools (user/dunwind)
#   make check      install what is missing (apt), build, host unit tests,
#                   fuzz briefly, boot the VM and run the selftests
#   make demo       profile a sample program in the VM, print stitched stacks
#   make vmtest     only the VM selftests
#   make bench      dunwind against perf (fp, dwarf) on the same workloads, one VM
#   make install    module into /lib/modules/$(KVER)/extra, dunwind into $(PREFIX)/bin
#   make KDIR=...   build against another kernel tree

# Default kernel: the running kernel's build tree when there is one (a real
# machine); otherwise the newest installed Debian 6.12 cloud headers (the VM).
KDIR ?= $(shell d=/lib/modules/$$(uname -r)/build; [ -d $$d ] && echo $$d || \
	  ls -d /usr/src/linux-headers-6.12*-cloud-amd64 2>/dev/null | sort -V | tail -n1)
KVER ?= $(shell [ -n "$(KDIR)" ] && make -s -C $(KDIR) kernelrelease 2>/dev/null)
PREFIX ?= /usr/local
export KDIR KVER

.PHONY: all module user selftests deps unit fuzz fuzz-short vmtest check demo \
	install clean bench

all: module user

module:
	@[ -n "$(KDIR)" ] || { echo "no kernel headers: run 'make deps' or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

user:
	$(MAKE) -C user

selftests: user
	$(MAKE) -C selftests

# Install what the build and the VM need (Debian packages), saying what.
deps:
	tools/deps

unit: user
	$(MAKE) -C user test
	$(MAKE) -C lib test

fuzz-short:
	$(MAKE) -C fuzz run SECONDS=20

fuzz:
	$(MAKE) -C fuzz run SECONDS=600

vmtest: module user selftests
	tools/vm/selftests

check:
	tools/check

demo: deps
	$(MAKE) module user selftests
	tools/demo

bench: module user
	tools/bench

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	install -D -m 755 user/dunwind $(DESTDIR)$(PREFIX)/bin/dunwind

# Kbuild's clean removes objects below M=: keep it to kmod/.
clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod clean
	-$(MAKE) -C user clean
	-$(MAKE) -C lib clean
	-$(MAKE) -C selftests clean
	-$(MAKE) -C fuzz clean
	-$(MAKE) -C bench clean

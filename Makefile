# SPDX-License-Identifier: GPL-2.0
# dunwind: the human front end.  The module's Kbuild is kmod/Kbuild.
#
#   make            module (out/kmod/KVER/kmod/dunwind.ko) and user tools (out/dunwind)
#   make module KERNEL=6.1|6.12|7.2   the module for one of the tested kernels
#                   (tools/kernel fetches that kernel first when needed;
#                   KERNEL=6.12-arm64 cross-builds for arm64)
#   make user ARCH=arm64   the recorder cross-built into out/arm64/dunwind
#   make programs [ARCH=arm64]   stock Debian programs profiled in the VM (tools/programs)
#   make check      install what is missing (apt), build, host unit tests,
#                   fuzz briefly, boot the VM and run the selftests
#   make demo       perf -g against dunwind on one program in the VM, one screen;
#                   flame graph and perf.data in out/demo/
#   make vmtest     only the VM selftests
#   make bench      dunwind against perf (fp, dwarf, 7.2's fp,defer; -a, --off-cpu), exact mode
#   make bench ARCH=arm64   the same table's arm64 section (the arm64 guest, TCG)
#   make install    module into /lib/modules/$(KVER)/extra, dunwind into $(PREFIX)/bin,
#                   its man pages and bash completion beside it (install-user: those only),
#                   the module's sources and dkms.conf into /usr/src/dunwind-VERSION
#                   (install-dkms) and the udev rule for /dev/dunwind (install-udev)
#   make dkms       install-dkms, then 'dkms install' for every kernel whose headers
#                   are in /lib/modules/*/build
#   make KDIR=...   build against another kernel tree (your own kernel's)
#   make KVER=...   build for an installed kernel release (its headers' tree)

# Default kernel: KERNEL= names a tested one (tools/kernel); else the
# running kernel's build tree when there is one (a real machine); otherwise
# the newest installed Debian 6.12 cloud headers (the VM's default).
ifneq ($(KERNEL),)
KDIR := $(shell tools/kernel fetch $(KERNEL) >&2 && tools/kernel env $(KERNEL) | sed -n 's/^KDIR=//p')
# Not a KVER from the environment (an outer make's default kernel).
KVER := $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# A kernel of another architecture (6.12-arm64): its ARCH and cross compiler.
KCROSS := $(shell tools/kernel env $(KERNEL) | sed -n 's/^\(ARCH\|CROSS_COMPILE\)=/\1=/p')
endif
# KVER= alone names an installed kernel: its headers' tree (the check in
# 'module' refuses a KDIR= of another release).
ifneq ($(KVER),)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build /usr/src/linux-headers-$(KVER)))
endif
KDIR ?= $(shell d=/lib/modules/$$(uname -r)/build; [ -d $$d ] && echo $$d || \
	  ls -d /usr/src/linux-headers-6.12*-cloud-amd64 2>/dev/null | sort -V | tail -n1)
# The release the module is for (vermagic), as the tree's headers say it.
KVER ?= $(shell [ -n "$(KDIR)" ] && sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# The module is built out of tree, one directory per kernel release: a
# shadow of kmod/ (links to its sources) beside links to uapi/ and lib/.
KOUT := $(CURDIR)/out/kmod/$(KVER)
PREFIX ?= /usr/local
# DKMS's version of the sources (as dunwind --version's).
DKMS_VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo 0)
DKMS_SRC = $(DESTDIR)/usr/src/dunwind-$(DKMS_VERSION)
export KDIR KVER

.PHONY: all module user selftests deps unit fuzz fuzz-short vmtest check demo \
	install install-user install-dkms install-udev dkms clean bench programs clients python jit java

all: module user

module:
	@[ -n "$(KDIR)" ] && [ -n "$(KVER)" ] || { echo "no kernel headers$(if $(KVER), for KVER=$(KVER)): run 'make deps' or pass KDIR=" >&2; exit 1; }
	@r=$$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null); \
	 [ "$$r" = "$(KVER)" ] || { echo "KVER=$(KVER) but the headers at '$(KDIR)' are for '$$r': pass KDIR= of $(KVER)'s headers, or KERNEL=6.1|6.12|7.2" >&2; exit 1; }
	@mkdir -p $(KOUT)/kmod/arch
	@ln -sfn $(CURDIR)/uapi $(KOUT)/uapi
	@ln -sfn $(CURDIR)/lib $(KOUT)/lib
	@find $(KOUT)/kmod -maxdepth 2 -xtype l -delete
	@for f in kmod/Kbuild kmod/*.[ch] kmod/arch/*.[ch]; do ln -sf $(CURDIR)/$$f $(KOUT)/$$f; done
	$(MAKE) -C $(KDIR) M=$(KOUT)/kmod $(KCROSS) modules
	@echo "module: $(KOUT)/kmod/dunwind.ko"

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
	tools/rooms_check

fuzz-short:
	$(MAKE) -C fuzz run SECONDS=15 SEED=1

fuzz:
	$(MAKE) -C fuzz run SECONDS=600 NICE=19 TIMEOUT=60

vmtest: module user selftests
	tools/vm/selftests

check:
	tools/check

# Quietly: the demo's one screen is its own (the build log stays in out/).
demo:
	@tools/deps
	@mkdir -p out
	@echo "demo: building the module, dunwind and the workloads (log: out/demo-build.log)"
	@$(MAKE) -s -j2 module user selftests > out/demo-build.log 2>&1 || \
		{ tail -n 30 out/demo-build.log; exit 1; }
	@tools/demo

# ARCH=arm64: the arm64 section instead (the arm64 guest, its module,
# recorder and perf; tools/bench --arch arm64).
ifeq ($(ARCH),arm64)
bench:
	$(MAKE) -C user
	tools/bench --arch arm64
else
bench: user
	tools/bench
endif

# The exports read by the real tools (perf without the programs, go tool
# pprof, speedscope in Chromium, perf script's form): one VM boot, kept out
# of 'make check' for Chromium's and go's weight.
clients: module user selftests
	tools/clients_test

# A Python program's own frames, on python3.11, 3.13 and 3.14 (tools/python_test).
python: module user
	tools/python_test

# Stock Debian programs (gzip, sort | xz, python3...) profiled as a user would;
# ARCH=arm64: in the arm64 guest (6.12-arm64, TCG), its module and recorder.
ifeq ($(ARCH),arm64)
programs:
	$(MAKE) module KERNEL=6.12-arm64
	$(MAKE) -C user
	tools/programs --arch arm64
else
programs: module user
	tools/programs
endif

# JIT-compiled JavaScript in the VM (node's ~100 MB binary: not in 'make check').
jit: module user
	tools/jit

# JIT-compiled Java in the VM (a 44 MB jlink runtime: not in 'make check').
java: module user
	tools/java

install: all install-user install-dkms install-udev
	$(MAKE) -C $(KDIR) M=$(KOUT)/kmod INSTALL_MOD_DIR=extra modules_install

# What DKMS builds from (dkms.conf): kmod/ (and kmod/arch/) with uapi/ and lib/ beside it.
install-dkms:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/kmod/arch $(DKMS_SRC)/uapi/linux $(DKMS_SRC)/lib
	install -m 644 kmod/Kbuild kmod/*.[ch] $(DKMS_SRC)/kmod/
	install -m 644 kmod/arch/*.[ch] $(DKMS_SRC)/kmod/arch/
	install -m 644 uapi/linux/dunwind.h $(DKMS_SRC)/uapi/linux/
	install -m 644 lib/*.[ch] $(DKMS_SRC)/lib/
	sed 's/@VERSION@/$(DKMS_VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf

dkms: install-dkms
	@command -v dkms >/dev/null || { echo "dkms not found: apt-get install dkms" >&2; exit 1; }
	@for k in $$(ls /lib/modules); do \
		[ -d /lib/modules/$$k/build ] || continue; \
		echo "dkms install dunwind/$(DKMS_VERSION) -k $$k"; \
		dkms install dunwind/$(DKMS_VERSION) -k $$k || exit 1; \
	done

# /dev/dunwind for root and the group "dunwind" (created here when missing).
install-udev:
	install -D -m 644 tools/udev/60-dunwind.rules $(DESTDIR)/etc/udev/rules.d/60-dunwind.rules
	@[ -n "$(DESTDIR)" ] || getent group dunwind >/dev/null || groupadd --system dunwind

# The man pages and the completion are generated from the option tables by 'make user'.
install-user: user
	install -D -m 755 out/dunwind $(DESTDIR)$(PREFIX)/bin/dunwind
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 out/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -D -m 644 out/completion/dunwind \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/dunwind

# Every build product is under out/.
clean:
	rm -rf out

# jview: `make` builds build/jview, `make demo` shows it working, `make test` runs every test (ctest),
# `make bench` runs the benchmarks. Missing Debian packages are installed when run as root.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
BENCH_ARGS ?=
CMAKE      ?= cmake

BUILD_PKGS := cmake g++ pkg-config python3 libcli11-dev libfmt-dev libfast-float-dev libonig-dev doctest-dev \
              libisal-dev libzstd-dev liblzma-dev libbz2-dev
TEST_PKGS  := clang-14 libclang-rt-14-dev jq libsimdjson-dev man-db groff-base bash-completion zsh fish \
              gzip zstd xz-utils bzip2 python3-distributed parallel
# (python3-munkres: matplotlib's fonttools then takes it rather than scipy, whose pythran pulls in libboost-dev 1.74,
# which conflicts with libboost-json1.81-dev: apt would remove matplotlib to install Boost.JSON, or the other way.)
BENCH_PKGS := isal zstd libsimdjson-dev rapidjson-dev nlohmann-json3-dev libboost-json1.81-dev gojq hyperfine moreutils python3-matplotlib python3-munkres
ARM_PKGS   := g++-aarch64-linux-gnu qemu-user

.PHONY: all jview install uninstall dist deps test-deps bench-deps arm-deps demo test test-arm test-numbers fuzz bench clean

all: jview

# deps: install what is missing (root), or print the exact command (not root).
define ensure_pkgs
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; }; \
	  else \
	    echo "missing packages; run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
endef

deps:
	$(call ensure_pkgs,$(BUILD_PKGS))
test-deps: deps
	$(call ensure_pkgs,$(TEST_PKGS) $(ARM_PKGS))
bench-deps: deps
	$(call ensure_pkgs,$(BENCH_PKGS))
arm-deps:
	$(call ensure_pkgs,$(ARM_PKGS))

$(BUILD)/CMakeCache.txt: | deps
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

jview: deps $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j $(JOBS)

demo: jview
	@echo '$$ jview . corpus/samples/demo.json'
	@$(BUILD)/jview . corpus/samples/demo.json
	@echo '$$ jview -c ".Image.Thumbnail" corpus/samples/demo.json'
	@$(BUILD)/jview -c '.Image.Thumbnail' corpus/samples/demo.json
	@echo '$$ jview ".Image.IDs[]" corpus/samples/demo.json'
	@$(BUILD)/jview '.Image.IDs[]' corpus/samples/demo.json
	@echo '$$ jview --check corpus/samples/demo.json corpus/samples/broken.json'
	@$(BUILD)/jview --check corpus/samples/demo.json corpus/samples/broken.json; echo "exit status $$?"

# Every group runs even after one fails; then tests/skip_summary.py says what was skipped and why (without ../shared:
# the tests and parts that need it), and the status is that of the groups.
CTEST_FLAGS := --output-on-failure -j $(JOBS) --output-junit ctest-junit.xml --test-output-size-passed 1000000
# The sanitized build: -g1 (line tables, enough for the sanitizers' file:line reports; no variables for a debugger)
# compiles in two thirds of -g's time.
test: test-deps jview
	$(CMAKE) -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DJVIEW_SANITIZE=ON \
	  -DJVIEW_FUZZ_TESTS=OFF >/dev/null
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS)
	@status=0; \
	echo "cd $(BUILD) && ctest $(CTEST_FLAGS)"; \
	(cd $(BUILD) && ctest $(CTEST_FLAGS)) || status=1; \
	echo "cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest $(CTEST_FLAGS)"; \
	(cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest $(CTEST_FLAGS)) || status=1; \
	echo "bash tests/arm/run.sh build-arm"; mkdir -p build-arm; \
	bash tests/arm/run.sh build-arm >build-arm/test.log 2>&1 || status=1; cat build-arm/test.log; \
	python3 tests/skip_summary.py $(BUILD) $(ASAN_BUILD) build-arm/test.log; \
	if [ $$status != 0 ]; then echo "make test: FAILED (see above)"; fi; exit $$status

# 100M doubles: shortest round trip and digits against std::to_chars (a long run, not part of `make test`).
test-numbers: jview
	$(CMAKE) --build $(BUILD) --target dtoa_long -j $(JOBS)
	$(BUILD)/tests/dtoa_long

# The libFuzzer targets (clang-14, ASan+UBSan), 60 s each by default; `make test` runs them 5 s each.
fuzz: test-deps
	bash tests/fuzz/run.sh --time $${FUZZ_TIME:-60} --build-dir build-fuzz/libfuzzer

# The AArch64 build (NEON kernels) cross-compiled and its simd unit tests run under qemu-user.
test-arm: arm-deps
	bash tests/arm/run.sh build-arm

bench: bench-deps
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DJVIEW_BENCH=ON >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)
	python3 tests/benchmarks/compare.py --build-dir $(BUILD) --data ../shared/corpus $(BENCH_ARGS)

# install: the binary, man page and completions under $(PREFIX) (cmake's GNUInstallDirs layout), staged in $(DESTDIR)
# when given; uninstall removes what the last install wrote (build/install_manifest.txt).
PREFIX ?= /usr/local
install: jview
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	DESTDIR=$(DESTDIR) $(CMAKE) --install $(BUILD)
uninstall:
	@test -f $(BUILD)/install_manifest.txt || { echo "no $(BUILD)/install_manifest.txt: nothing installed from $(BUILD)"; exit 1; }
	@while read -r f; do echo "removing $$f"; rm -f "$$f"; done < $(BUILD)/install_manifest.txt

# dist: a source tarball of the committed tree (HEAD), jview-VERSION.tar.gz in build/.
VERSION := $(shell awk '/^project.jview VERSION/ {print $$3}' CMakeLists.txt)
dist:
	mkdir -p $(BUILD)
	git archive --format=tar.gz --prefix=jview-$(VERSION)/ -o $(BUILD)/jview-$(VERSION).tar.gz HEAD
	@echo "$(BUILD)/jview-$(VERSION).tar.gz"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

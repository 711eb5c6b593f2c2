;; WASI preview1 for apps built with Go (GOOS=wasip1 -buildmode=c-shared), on top of WASI 0.2.
;;
;; `trellis build` makes a Go core module a component with jco's embed/new and this module as the
;; `wasi_snapshot_preview1` adapter (runtime/src/build/go/go-component.ts). The general-purpose adapter
;; jco ships cannot serve Go: it allocates its stack and state on its first call, through the module's
;; cabi_realloc or memory.grow, and Go's runtime makes that first call (clock_time_get, random_get)
;; before its allocator exists, then claims all memory above its data as its heap. This adapter needs no
;; memory of its own beyond a small scratch area for the return values of the WASI 0.2 calls, placed
;; in 4096..12288: the linker leaves that range unused on wasip1 (it holds wasm_exec.js's arguments on
;; GOOS=js only), and the build checks the module's data starts above it.
;;
;; What an app sees: stdout and stderr (captured as the call's output), clocks, random, sleeping
;; (poll_oneoff on clocks), exit; no arguments, no environment, no files (fds 0-2 are character
;; devices; every other descriptor is EBADF), no sockets. Errno values are preview1's.
(module
  (import "env" "memory" (memory 0))
  (import "wasi:io/poll@0.2.0" "[method]pollable.block" (func $pollable_block (param i32)))
  (import "wasi:io/poll@0.2.0" "[resource-drop]pollable" (func $pollable_drop (param i32)))
  (import "wasi:io/error@0.2.0" "[resource-drop]error" (func $error_drop (param i32)))
  (import "wasi:io/streams@0.2.0" "[method]output-stream.blocking-write-and-flush"
    (func $blocking_write_and_flush (param i32 i32 i32 i32)))
  (import "wasi:clocks/monotonic-clock@0.2.0" "now" (func $monotonic_now (result i64)))
  (import "wasi:clocks/monotonic-clock@0.2.0" "subscribe-duration" (func $subscribe_duration (param i64) (result i32)))
  (import "wasi:clocks/wall-clock@0.2.0" "now" (func $wall_now (param i32)))
  (import "wasi:random/random@0.2.0" "get-random-u64" (func $random_u64 (result i64)))
  (import "wasi:cli/stdout@0.2.0" "get-stdout" (func $get_stdout (result i32)))
  (import "wasi:cli/stderr@0.2.0" "get-stderr" (func $get_stderr (result i32)))
  (import "wasi:cli/exit@0.2.0" "exit" (func $exit (param i32)))

  ;; Scratch for return areas of lowered imports: Go's linker leaves 4096..12288 unused on wasip1.
  (global $scratch i32 (i32.const 4096))
  (global $stdout (mut i32) (i32.const -1))
  (global $stderr (mut i32) (i32.const -1))

  (func $stream (param $fd i32) (result i32)
    (if (i32.eq (local.get $fd) (i32.const 1))
      (then
        (if (i32.eq (global.get $stdout) (i32.const -1)) (then (global.set $stdout (call $get_stdout))))
        (return (global.get $stdout))))
    (if (i32.eq (local.get $fd) (i32.const 2))
      (then
        (if (i32.eq (global.get $stderr) (i32.const -1)) (then (global.set $stderr (call $get_stderr))))
        (return (global.get $stderr))))
    (i32.const -1))

  (func (export "fd_write") (param $fd i32) (param $iovs i32) (param $count i32) (param $written i32) (result i32)
    (local $stream i32) (local $ptr i32) (local $len i32) (local $chunk i32) (local $total i32)
    (local.set $stream (call $stream (local.get $fd)))
    (if (i32.eq (local.get $stream) (i32.const -1)) (then (return (i32.const 8))))
    (block $done
      (loop $iov
        (br_if $done (i32.eqz (local.get $count)))
        (local.set $ptr (i32.load (local.get $iovs)))
        (local.set $len (i32.load offset=4 (local.get $iovs)))
        (block $iov_done
          (loop $chunks
            (br_if $iov_done (i32.eqz (local.get $len)))
            (local.set $chunk
              (select (local.get $len) (i32.const 4096) (i32.lt_u (local.get $len) (i32.const 4096))))
            (call $blocking_write_and_flush (local.get $stream) (local.get $ptr) (local.get $chunk) (global.get $scratch))
            (if (i32.load8_u (global.get $scratch))
              (then
                (if (i32.eqz (i32.load8_u offset=4 (global.get $scratch)))
                  (then (call $error_drop (i32.load offset=8 (global.get $scratch)))))
                (i32.store (local.get $written) (local.get $total))
                (return (i32.const 29))))
            (local.set $ptr (i32.add (local.get $ptr) (local.get $chunk)))
            (local.set $len (i32.sub (local.get $len) (local.get $chunk)))
            (local.set $total (i32.add (local.get $total) (local.get $chunk)))
            (br $chunks)))
        (local.set $iovs (i32.add (local.get $iovs) (i32.const 8)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $iov)))
    (i32.store (local.get $written) (local.get $total))
    (i32.const 0))

  (func (export "fd_read") (param $fd i32) (param i32 i32) (param $read i32) (result i32)
    (if (i32.eqz (local.get $fd))
      (then (i32.store (local.get $read) (i32.const 0)) (return (i32.const 0))))
    (i32.const 8))

  (func (export "random_get") (param $buf i32) (param $len i32) (result i32)
    (local $v i64)
    (block $done
      (loop $words
        (br_if $done (i32.lt_u (local.get $len) (i32.const 8)))
        (i64.store (local.get $buf) (call $random_u64))
        (local.set $buf (i32.add (local.get $buf) (i32.const 8)))
        (local.set $len (i32.sub (local.get $len) (i32.const 8)))
        (br $words)))
    (if (local.get $len)
      (then
        (local.set $v (call $random_u64))
        (loop $bytes
          (i64.store8 (local.get $buf) (local.get $v))
          (local.set $v (i64.shr_u (local.get $v) (i64.const 8)))
          (local.set $buf (i32.add (local.get $buf) (i32.const 1)))
          (local.set $len (i32.sub (local.get $len) (i32.const 1)))
          (br_if $bytes (local.get $len)))))
    (i32.const 0))

  (func $now (param $id i32) (result i64)
    (if (i32.eqz (local.get $id))
      (then
        (call $wall_now (global.get $scratch))
        (return
          (i64.add
            (i64.mul (i64.load (global.get $scratch)) (i64.const 1000000000))
            (i64.extend_i32_u (i32.load offset=8 (global.get $scratch)))))))
    (call $monotonic_now))

  (func (export "clock_time_get") (param $id i32) (param i64) (param $out i32) (result i32)
    (if (i32.gt_u (local.get $id) (i32.const 3)) (then (return (i32.const 28))))
    (i64.store (local.get $out) (call $now (local.get $id)))
    (i32.const 0))

  (func (export "clock_res_get") (param $id i32) (param $out i32) (result i32)
    (if (i32.gt_u (local.get $id) (i32.const 3)) (then (return (i32.const 28))))
    (i64.store (local.get $out) (select (i64.const 1000000) (i64.const 1) (i32.eqz (local.get $id))))
    (i32.const 0))

  ;; Clock subscriptions only: waits for the earliest, then reports every clock subscription due by then.
  ;; fd subscriptions are reported ready at once (there are no real descriptors in the sandbox).
  (func (export "poll_oneoff") (param $in i32) (param $out i32) (param $n i32) (param $nevents i32) (result i32)
    (local $i i32) (local $sub i32) (local $ev i32) (local $count i32)
    (local $timeout i64) (local $min i64) (local $clocks i32) (local $pollable i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 28))))
    (local.set $min (i64.const -1))
    (local.set $ev (local.get $out))
    (loop $subs
      (local.set $sub (i32.add (local.get $in) (i32.mul (local.get $i) (i32.const 48))))
      (if (i32.eqz (i32.load8_u offset=8 (local.get $sub)))
        (then
          (local.set $timeout (call $relative_timeout (local.get $sub)))
          (if (i64.lt_u (local.get $timeout) (local.get $min)) (then (local.set $min (local.get $timeout))))
          (local.set $clocks (i32.add (local.get $clocks) (i32.const 1))))
        (else
          (call $event (local.get $ev) (local.get $sub))
          (local.set $ev (i32.add (local.get $ev) (i32.const 32)))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $subs (i32.lt_u (local.get $i) (local.get $n))))
    (if (i32.and (i32.eqz (local.get $count)) (i32.ne (local.get $clocks) (i32.const 0)))
      (then
        (if (i64.ne (local.get $min) (i64.const 0))
          (then
            (local.set $pollable (call $subscribe_duration (local.get $min)))
            (call $pollable_block (local.get $pollable))
            (call $pollable_drop (local.get $pollable))))
        (local.set $i (i32.const 0))
        (loop $due
          (local.set $sub (i32.add (local.get $in) (i32.mul (local.get $i) (i32.const 48))))
          (if (i32.and
                (i32.eqz (i32.load8_u offset=8 (local.get $sub)))
                (i64.le_u (call $relative_timeout (local.get $sub)) (local.get $min)))
            (then
              (call $event (local.get $ev) (local.get $sub))
              (local.set $ev (i32.add (local.get $ev) (i32.const 32)))
              (local.set $count (i32.add (local.get $count) (i32.const 1)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $due (i32.lt_u (local.get $i) (local.get $n))))))
    (i32.store (local.get $nevents) (local.get $count))
    (i32.const 0))

  ;; A clock subscription's timeout in ns from now (absolute timeouts are converted with the clock's now).
  (func $relative_timeout (param $sub i32) (result i64)
    (local $timeout i64) (local $now i64)
    (local.set $timeout (i64.load offset=24 (local.get $sub)))
    (if (i32.eqz (i32.and (i32.load16_u offset=40 (local.get $sub)) (i32.const 1)))
      (then (return (local.get $timeout))))
    (local.set $now (call $now (i32.load offset=16 (local.get $sub))))
    (if (i64.le_u (local.get $timeout) (local.get $now)) (then (return (i64.const 0))))
    (i64.sub (local.get $timeout) (local.get $now)))

  (func $event (param $ev i32) (param $sub i32)
    (i64.store (local.get $ev) (i64.load (local.get $sub)))
    (i32.store16 offset=8 (local.get $ev) (i32.const 0))
    (i32.store8 offset=10 (local.get $ev) (i32.load8_u offset=8 (local.get $sub)))
    (i64.store offset=16 (local.get $ev) (i64.const 0))
    (i32.store16 offset=24 (local.get $ev) (i32.const 0)))

  (func (export "proc_exit") (param $code i32)
    (call $exit (i32.ne (local.get $code) (i32.const 0)))
    (unreachable))

  (func (export "sched_yield") (result i32) (i32.const 0))

  (func (export "args_sizes_get") (param $argc i32) (param $size i32) (result i32)
    (i32.store (local.get $argc) (i32.const 0))
    (i32.store (local.get $size) (i32.const 0))
    (i32.const 0))
  (func (export "args_get") (param i32 i32) (result i32) (i32.const 0))
  (func (export "environ_sizes_get") (param $count i32) (param $size i32) (result i32)
    (i32.store (local.get $count) (i32.const 0))
    (i32.store (local.get $size) (i32.const 0))
    (i32.const 0))
  (func (export "environ_get") (param i32 i32) (result i32) (i32.const 0))

  ;; fds 0-2 are character devices; there are no others (no preopens).
  (func (export "fd_fdstat_get") (param $fd i32) (param $buf i32) (result i32)
    (if (i32.gt_u (local.get $fd) (i32.const 2)) (then (return (i32.const 8))))
    (i32.store8 (local.get $buf) (i32.const 2))
    (i32.store16 offset=2 (local.get $buf) (i32.const 0))
    (i64.store offset=8 (local.get $buf) (i64.const 0x1fffffff))
    (i64.store offset=16 (local.get $buf) (i64.const 0))
    (i32.const 0))
  (func (export "fd_fdstat_set_flags") (param $fd i32) (param i32) (result i32)
    (select (i32.const 0) (i32.const 8) (i32.le_u (local.get $fd) (i32.const 2))))
  (func (export "fd_filestat_get") (param $fd i32) (param $buf i32) (result i32)
    (if (i32.gt_u (local.get $fd) (i32.const 2)) (then (return (i32.const 8))))
    (memory.fill (local.get $buf) (i32.const 0) (i32.const 64))
    (i32.store8 offset=16 (local.get $buf) (i32.const 2))
    (i32.const 0))
  (func (export "fd_close") (param $fd i32) (result i32)
    (select (i32.const 0) (i32.const 8) (i32.le_u (local.get $fd) (i32.const 2))))
  (func (export "fd_seek") (param $fd i32) (param i64 i32 i32) (result i32)
    (select (i32.const 70) (i32.const 8) (i32.le_u (local.get $fd) (i32.const 2))))
  (func (export "fd_tell") (param $fd i32) (param i32) (result i32)
    (select (i32.const 70) (i32.const 8) (i32.le_u (local.get $fd) (i32.const 2))))
  (func (export "fd_prestat_get") (param i32 i32) (result i32) (i32.const 8))
  (func (export "fd_prestat_dir_name") (param i32 i32 i32) (result i32) (i32.const 8))
  (func (export "fd_advise") (param i32 i64 i64 i32) (result i32) (i32.const 8))
  (func (export "fd_allocate") (param i32 i64 i64) (result i32) (i32.const 8))
  (func (export "fd_datasync") (param i32) (result i32) (i32.const 8))
  (func (export "fd_fdstat_set_rights") (param i32 i64 i64) (result i32) (i32.const 8))
  (func (export "fd_filestat_set_size") (param i32 i64) (result i32) (i32.const 8))
  (func (export "fd_filestat_set_times") (param i32 i64 i64 i32) (result i32) (i32.const 8))
  (func (export "fd_pread") (param i32 i32 i32 i64 i32) (result i32) (i32.const 8))
  (func (export "fd_pwrite") (param i32 i32 i32 i64 i32) (result i32) (i32.const 8))
  (func (export "fd_readdir") (param i32 i32 i32 i64 i32) (result i32) (i32.const 8))
  (func (export "fd_renumber") (param i32 i32) (result i32) (i32.const 8))
  (func (export "fd_sync") (param i32) (result i32) (i32.const 8))
  (func (export "path_create_directory") (param i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_filestat_get") (param i32 i32 i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_filestat_set_times") (param i32 i32 i32 i32 i64 i64 i32) (result i32) (i32.const 8))
  (func (export "path_link") (param i32 i32 i32 i32 i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_open") (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32) (i32.const 8))
  (func (export "path_readlink") (param i32 i32 i32 i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_remove_directory") (param i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_rename") (param i32 i32 i32 i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_symlink") (param i32 i32 i32 i32 i32) (result i32) (i32.const 8))
  (func (export "path_unlink_file") (param i32 i32 i32) (result i32) (i32.const 8))
  (func (export "proc_raise") (param i32) (result i32) (i32.const 52))
  (func (export "sock_accept") (param i32 i32 i32) (result i32) (i32.const 58))
  (func (export "sock_recv") (param i32 i32 i32 i32 i32 i32) (result i32) (i32.const 58))
  (func (export "sock_send") (param i32 i32 i32 i32 i32) (result i32) (i32.const 58))
  (func (export "sock_shutdown") (param i32 i32) (result i32) (i32.const 58))
)

/**
 * The link between the `trellis-platform` launcher and its children (the preparation, the server under the
 * permission model). Signals are forwarded, but a SIGKILL of the launcher forwards nothing: the child
 * would live on as an orphan holding the ports and the store. So the launcher gives each child an IPC
 * channel, and the child watches it: when the launcher dies, the operating system closes the channel and
 * the child shuts down as on SIGTERM. (An IPC channel is set up by Node before any code runs; it needs no
 * permission the server lacks.)
 */

/** Set on a child the launcher started: its IPC channel is the launcher. */
export const LAUNCHER_CHILD_ENV = "TRELLIS_PLATFORM_LAUNCHER_CHILD";

/** How the launcher starts a child: inherited stdio, plus the IPC channel the child watches. */
export const CHILD_STDIO = ["inherit", "inherit", "inherit", "ipc"] as const;

/**
 * In a child of the launcher, calls `gone` once the launcher has died (its IPC channel closed). The
 * channel does not keep the process alive. Returns whether this process is such a child.
 */
export function onLauncherGone(gone: () => void): boolean {
  if (process.env[LAUNCHER_CHILD_ENV] !== "1" || !process.channel) return false;
  process.channel.unref();
  process.once("disconnect", gone);
  return true;
}

// @ts-check
/* global module, process */
/**
 * electron-builder's `beforePack` hook (electron-builder.yml): refuses to pack an installer for
 * another OS than the one electron-builder runs on. The `files` patterns keep the native
 * binaries of `${platform}`, which electron-builder expands to node's name of the OS it runs on
 * (not of the target), so a cross build would ship the wrong OS's onnxruntime and Opus.
 * @param {{ electronPlatformName: string, arch: number | string }} context
 */
function beforePack(context) {
  if (context.electronPlatformName !== process.platform) {
    throw new Error(
      `Build the ${context.electronPlatformName} installer on ${context.electronPlatformName}: ` +
        `this ${process.platform} machine would pack its own native binaries (onnxruntime-node, Opus) into it.`,
    );
  }
}

module.exports = beforePack;
module.exports.default = beforePack;

import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Packages Node loads at run time instead of the bundler: they use Node APIs (node:crypto, the stores' sockets) and load optional packages (trusted lists, PKCS#11, AWS KMS) only when configured. */
const NODE_PACKAGES = ['@vp-authorizer/core', '@vp-authorizer/server'];

/** @type {import('next').NextConfig} */
export default {
  // Enough for an app that installs the packages from npm (they resolve inside node_modules).
  serverExternalPackages: NODE_PACKAGES,
  // Inside this repository they are workspace links that resolve to the packages' own folders,
  // which Next bundles whatever serverExternalPackages says: the same rule, as a webpack external.
  webpack(config, { isServer }) {
    if (isServer) {
      config.externals.push(({ request }, callback) =>
        NODE_PACKAGES.some((name) => request === name || request?.startsWith(`${name}/`)) ? callback(undefined, `commonjs ${request}`) : callback(),
      );
    }
    return config;
  },
  // The workspace root, where the lockfile is: file tracing follows the packages' links up to it.
  outputFileTracingRoot: dirname(dirname(dirname(fileURLToPath(import.meta.url)))),
  // No linter is installed for the example; `next build` would otherwise look for one.
  eslint: { ignoreDuringBuilds: true },
  poweredByHeader: false,
};

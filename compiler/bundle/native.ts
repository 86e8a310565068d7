// Native addons cannot live in a one-file bundle. The packages that try one (ssh2's crypto binding and
// cpu-features) require it inside try/catch and fall back to pure JavaScript, so in the bundle the
// require throws, as it does where the addon was never built.
import type { Plugin } from 'esbuild';

export const nativeAddonPlugin: Plugin = {
  name: 'pipewright-no-native',
  setup(b) {
    b.onResolve({ filter: /\.node$/ }, (a) => ({ path: a.path, namespace: 'pipewright-native' }));
    b.onLoad({ filter: /.*/, namespace: 'pipewright-native' }, (a) => ({
      loader: 'js',
      contents: `throw new Error(${JSON.stringify(`native addon ${a.path} is not in the bundle`)});\n`,
    }));
  },
};

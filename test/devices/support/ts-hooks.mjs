// Lets a child Node 24 process run the project's TypeScript directly: Node strips the types,
// and this hook maps the `.js` of relative imports to the `.ts` file beside it.
import { registerHooks } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, next) {
    if (
      specifier.startsWith('.') &&
      specifier.endsWith('.js') &&
      context.parentURL?.startsWith('file:')
    ) {
      const url = new URL(specifier, context.parentURL);
      const ts = fileURLToPath(url).replace(/\.js$/, '.ts');
      if (!existsSync(fileURLToPath(url)) && existsSync(ts))
        return next(specifier.replace(/\.js$/, '.ts'), context);
    }
    return next(specifier, context);
  },
});

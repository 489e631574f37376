// Components render; the calls they show come from their feature's api/ module (or web/src/lib/ when
// several features share them), where each call names its path and its response schema once. A
// component, hook or helper module that imports the API client directly grows its own copy of a
// call, unparsed. eslint.config.js applies the rule everywhere in web/src but api/ and lib/.
import { dirname, relative, resolve } from 'node:path';

const CLIENT = 'web/src/lib/api-client';

export const noApiInComponents = {
  meta: {
    type: 'problem',
    docs: { description: "Disallow importing the API client outside a feature's api/ folder and web/src/lib/." },
    messages: {
      apiInComponent: "{{file}} imports the API client: put the call in the feature's api/ module (or web/src/lib/ when features share it) and import that.",
    },
    schema: [],
  },
  create(context) {
    const file = relative(context.cwd, context.filename).split('\\').join('/');
    const check = (node, source = node.source) => {
      const specifier = source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = relative(context.cwd, resolve(dirname(context.filename), specifier))
        .split('\\')
        .join('/')
        .replace(/\.(js|ts)$/, '');
      if (target === CLIENT) context.report({ node: source, messageId: 'apiInComponent', data: { file } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-api-in-components': noApiInComponents } };

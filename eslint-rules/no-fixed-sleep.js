// A test that sleeps waits as long as the slowest machine might need, every run, and still fails
// on a slower one. Tests wait for what they wait for with test/support/eventually.ts. A short
// pause (a debounce, a window that proves nothing happens) stays allowed up to `maxMs`; a longer
// one, or one whose length is not a constant, needs an eslint-disable comment that says why.

const DEFAULT_MAX_MS = 1000;

/** The number an expression stands for: a literal, or a const initialised with one in scope. */
function constantValue(node, scope) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'number') return node.value;
  if (node.type === 'UnaryExpression' && node.operator === '-' && node.argument.type === 'Literal') return -node.argument.value;
  if (node.type === 'Identifier') {
    for (let s = scope; s; s = s.upper) {
      const variable = s.set.get(node.name);
      if (!variable) continue;
      const def = variable.defs[0];
      if (def?.type === 'Variable' && def.parent?.kind === 'const' && def.node.init) return constantValue(def.node.init, s);
      return undefined;
    }
  }
  return undefined;
}

/** `setTimeout(fn, ms)` or `globalThis.setTimeout(fn, ms)` → the ms node; `test.setTimeout(ms)` is a test's time limit, not a sleep. */
function sleepArgument(call) {
  const callee = call.callee;
  if (callee.type === 'Identifier' && callee.name === 'setTimeout') return { kind: 'setTimeout', ms: call.arguments[1] };
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'setTimeout') {
    if (callee.object.type === 'Identifier' && ['globalThis', 'window', 'global'].includes(callee.object.name))
      return { kind: 'setTimeout', ms: call.arguments[1] };
    return null;
  }
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'waitForTimeout')
    return { kind: 'waitForTimeout', ms: call.arguments[0] };
  return null;
}

export const noFixedSleep = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow fixed sleeps longer than a short pause in tests; wait with eventually() instead.' },
    messages: {
      long: '{{kind}} of {{ms}} ms: wait for the thing itself with eventually() from test/support/eventually.ts, or say in an eslint-disable comment why the clock is the subject.',
      unknown:
        '{{kind}} whose length is not a constant: wait for the thing itself with eventually() from test/support/eventually.ts, or say in an eslint-disable comment why.',
    },
    schema: [{ type: 'object', properties: { maxMs: { type: 'number' } }, additionalProperties: false }],
  },
  create(context) {
    const maxMs = context.options[0]?.maxMs ?? DEFAULT_MAX_MS;
    return {
      CallExpression(node) {
        const sleep = sleepArgument(node);
        if (!sleep) return;
        // setTimeout(fn) with no delay is the next turn of the event loop.
        if (!sleep.ms) return;
        const ms = constantValue(sleep.ms, context.sourceCode.getScope(node));
        if (ms === undefined) context.report({ node, messageId: 'unknown', data: { kind: sleep.kind } });
        else if (ms > maxMs) context.report({ node, messageId: 'long', data: { kind: sleep.kind, ms: String(ms) } });
      },
    };
  },
};

export default { rules: { 'no-fixed-sleep': noFixedSleep } };

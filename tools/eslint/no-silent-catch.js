// An error may be dropped only with a comment saying why: `catch {}` and `.catch(() => undefined)`
// without one hide failures (a lost checkpoint looks like success).
function isSilentBody(fn) {
  const body = fn.body;
  if (!body) return false;
  if (body.type === 'BlockStatement') return body.body.length === 0;
  if (body.type === 'Identifier' && body.name === 'undefined') return true;
  if (body.type === 'Literal' && body.value === null) return true;
  if (body.type === 'UnaryExpression' && body.operator === 'void') return true;
  if (body.type === 'ObjectExpression' && body.properties.length === 0) return false;
  return false;
}

function hasComment(sourceCode, node) {
  if (sourceCode.getCommentsInside(node).length) return true;
  // A comment on the handler's own lines or on the line just above the expression explains it.
  let top = node;
  while (top.parent && top.parent.type !== 'Program' && top.parent.loc.start.line >= node.loc.start.line - 3 && !/Statement|Property/.test(top.type)) top = top.parent;
  const from = Math.min(top.loc.start.line, node.loc.start.line) - 1;
  const to = node.loc.end.line;
  return sourceCode.getAllComments().some((c) => c.loc.end.line >= from && c.loc.start.line <= to);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Errors are never swallowed without a comment that says why.' },
    messages: { silent: 'This swallows an error. Handle it, or say why in a comment.' },
    schema: [],
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      CatchClause(node) {
        if (node.body.body.length === 0 && !sourceCode.getCommentsInside(node.body).length) context.report({ node, messageId: 'silent' });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const name = callee.property.name;
        const handler = name === 'catch' ? node.arguments[0] : name === 'then' ? node.arguments[1] : undefined;
        if (!handler || (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression')) return;
        if (isSilentBody(handler) && !hasComment(sourceCode, handler)) context.report({ node: handler, messageId: 'silent' });
      },
    };
  },
};

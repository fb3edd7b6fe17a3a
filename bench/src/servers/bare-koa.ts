import Koa from 'koa';
import { sampleLearner } from '../fixtures.js';
import { announce } from './ready.js';

// Baseline: bare Koa answering the same JSON as Fundi's learner endpoints, with no auth, database or logging.
const one = sampleLearner(0);
const hundred = {
  data: Array.from({ length: 100 }, (_, i) => sampleLearner(i)),
  pagination: { hasMore: true, nextCursor: 'x', total: 1000 },
};
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    ctx.status = 201;
    ctx.body = one;
  } else {
    ctx.body = ctx.path === '/list' ? hundred : one;
  }
});
const server = app.listen(0, '127.0.0.1', () => announce(server));

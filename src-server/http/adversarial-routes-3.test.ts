// Shard 3 of 4 of the adversarial route barrage (src-server/test-support/adversarial-routes.ts).
import { describeAdversarialRoutes } from '../test-support/adversarial-routes.ts';

describeAdversarialRoutes(2, 4);

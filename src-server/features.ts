import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { authFeature } from './auth/feature.ts';
import type { Services } from './services.ts';
import { firewallFeature } from './firewall/feature.ts';
import { peersFeature } from './peers/feature.ts';
import { modulesFeature } from './modules/feature.ts';
import { asyncRequestsFeature } from './queue/async-feature.ts';

/** What a feature adds to the web thread once storage and the queue exist. */
export interface FeatureHandle {
  /** Routes outside the generic v3 grammar (bouncer export, auth endpoints, legacy). */
  routes?: (router: Router) => void;
  /** Middleware run before any routing, e.g. refusing banned addresses. */
  guards?: Middleware[];
  stop?(): void | Promise<void>;
}

/** A capability of the server: auth, firewall, peers, modules... Started in list order. */
export interface Feature {
  name: string;
  start(services: Services): FeatureHandle | Promise<FeatureHandle>;
}

/**
 * Every feature of the server, in start order. A feature that others read (through `Services`)
 * comes before them.
 */
export const features: Feature[] = [firewallFeature, authFeature, peersFeature, modulesFeature, asyncRequestsFeature];

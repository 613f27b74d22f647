// What a slice's actions (slices/*/actions.ts) may use of the controller (controller.ts
// implements it), and the shape of their maps. Types and one helper only, so the slices
// depend on the controller's contract, never on the controller.
import type { Action } from './actions.js';
import type { Api } from './api.js';
import type { Built } from './requests.js';
import type { Errors } from './slices/frame/state.js';
import type { Event, State } from './state.js';
import type { CheckRequest, CommandInput, CommandName, CommandOutput, ErrorBody } from './types.js';

export interface Till {
  readonly state: State;
  readonly api: Api;
  /** Pay was pressed while a calculation ran: the controller opens the payment when it lands. */
  payWhenCalculated: boolean;
  dispatch(event: Event): void;
  /** Runs a command; a refusal becomes `onError`'s event or the message line. */
  run<N extends CommandName>(
    name: N,
    input: CommandInput<N>,
    onOk: (out: CommandOutput<N>) => Event | Event[] | void,
    onError?: (e: ErrorBody) => Event | void,
  ): Promise<boolean>;
  /** Marks the fields a request builder refused; true when there is nothing to send. */
  invalid<T>(built: Built<T>): built is { errors: Errors };
  calculate(): Promise<void>;
  /**
   * Starts `check-calc` of a check the draft may become (a typed code, while its search runs):
   * the next calculation takes this answer when it prices exactly this check, else drops it.
   * null drops the one started.
   */
  prefetchCalc(check: CheckRequest | null): void;
  refreshStatus(): Promise<void>;
  refreshDevices(): Promise<void>;
  loadAttention(): Promise<void>;
  loadReport(): Promise<void>;
  newId(): string;
  /** The clock (ms since the epoch), for what is relative to today. */
  now(): number;
  perform(action: Action): Promise<void>;
}

/** The function of each action of a union, each given exactly its own action. */
export type Performers<A extends { type: string }> = {
  [T in A['type']]: (till: Till, action: Extract<A, { type: T }>) => void | Promise<void>;
};

/**
 * An action that is an event of the same shape: the reducer takes it as it is. Typed on
 * Event, so an action given `send` that is not an event does not compile.
 */
export const send = (till: Till, event: Event): void => till.dispatch(event);

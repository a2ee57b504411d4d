/** Physical parameters of the simulated robot. */
export interface SimParameters {
  /** The room is the square [-h, h]²; the range sensor sees its walls. */
  readonly roomHalfSizeM: number;
  readonly batteryPercent: number;
  /** Drain while standing, in percent per minute. */
  readonly drainIdlePercentPerMin: number;
  /** Extra drain per metre travelled, in percent. */
  readonly drainPercentPerM: number;
  /** The base stops when no velocity command came for this long (like a real base's cmd_vel timeout). */
  readonly cmdTimeoutS: number;
  /** Range sensor limits. */
  readonly rangeMinM: number;
  readonly rangeMaxM: number;
}

export const DEFAULT_SIM_PARAMETERS: SimParameters = Object.freeze({
  roomHalfSizeM: 5,
  batteryPercent: 100,
  drainIdlePercentPerMin: 0.5,
  drainPercentPerM: 0.2,
  cmdTimeoutS: 0.5,
  rangeMinM: 0.02,
  rangeMaxM: 4,
});

/** Pose and velocity of the base. */
export interface SimState {
  x: number;
  y: number;
  yaw: number;
  linear: number;
  angular: number;
  batteryPercent: number;
  travelledM: number;
}

/**
 * A differential-drive base in a square room, integrated exactly for
 * constant velocities between steps, with battery drain and a forward range
 * sensor. Time comes from the caller (`step(dt)`), never from a wall clock.
 */
export class SimRobot {
  readonly params: SimParameters;
  readonly state: SimState;
  #sinceCommandS = Infinity;

  constructor(params: Partial<SimParameters> = {}) {
    this.params = { ...DEFAULT_SIM_PARAMETERS, ...params };
    this.state = {
      x: 0,
      y: 0,
      yaw: 0,
      linear: 0,
      angular: 0,
      batteryPercent: this.params.batteryPercent,
      travelledM: 0,
    };
  }

  /** A velocity command (a Twist's linear.x and angular.z). */
  command(linear: number, angular: number): void {
    this.state.linear = linear;
    this.state.angular = angular;
    this.#sinceCommandS = 0;
  }

  /** Advances the simulation by `dt` seconds. */
  step(dt: number): void {
    if (!(dt > 0)) return;
    const s = this.state;
    const p = this.params;
    // Commands older than the timeout stop the base, part-way through the step if need be.
    const remaining = Math.max(0, p.cmdTimeoutS - this.#sinceCommandS);
    const movingFor = Math.min(dt, remaining);
    if (movingFor > 0 && (s.linear !== 0 || s.angular !== 0)) this.#integrate(movingFor);
    this.#sinceCommandS += dt;
    if (this.#sinceCommandS >= p.cmdTimeoutS) {
      s.linear = 0;
      s.angular = 0;
    }
    s.batteryPercent = Math.max(0, s.batteryPercent - (p.drainIdlePercentPerMin / 60) * dt);
  }

  #integrate(dt: number): void {
    const s = this.state;
    const { linear: v, angular: w } = s;
    let nx: number;
    let ny: number;
    if (Math.abs(w) < 1e-12) {
      nx = s.x + v * Math.cos(s.yaw) * dt;
      ny = s.y + v * Math.sin(s.yaw) * dt;
    } else {
      nx = s.x + (v / w) * (Math.sin(s.yaw + w * dt) - Math.sin(s.yaw));
      ny = s.y - (v / w) * (Math.cos(s.yaw + w * dt) - Math.cos(s.yaw));
    }
    const h = this.params.roomHalfSizeM;
    // Walls stop the base.
    s.x = Math.min(h, Math.max(-h, nx));
    s.y = Math.min(h, Math.max(-h, ny));
    s.yaw = normalizeAngle(s.yaw + w * dt);
    const distance = Math.abs(v) * dt;
    s.travelledM += distance;
    s.batteryPercent = Math.max(0, s.batteryPercent - this.params.drainPercentPerM * distance);
  }

  /** Distance from the base along its heading to the nearest wall, within the sensor's limits. */
  range(): number {
    const { x, y, yaw } = this.state;
    const h = this.params.roomHalfSizeM;
    const dx = Math.cos(yaw);
    const dy = Math.sin(yaw);
    const hits: number[] = [];
    if (dx > 1e-12) hits.push((h - x) / dx);
    if (dx < -1e-12) hits.push((-h - x) / dx);
    if (dy > 1e-12) hits.push((h - y) / dy);
    if (dy < -1e-12) hits.push((-h - y) / dy);
    const distance = Math.min(...hits);
    return Math.min(this.params.rangeMaxM, Math.max(this.params.rangeMinM, distance));
  }
}

/** An angle in (-π, π]. */
export function normalizeAngle(angle: number): number {
  let a = angle % (2 * Math.PI);
  if (a <= -Math.PI) a += 2 * Math.PI;
  if (a > Math.PI) a -= 2 * Math.PI;
  return a;
}

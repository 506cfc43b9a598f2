// What the numbers were measured on: they mean little without it.
import { cpus, loadavg, totalmem } from 'node:os';
import { spawnSync } from 'node:child_process';

export function describeMachine() {
  const list = cpus();
  const redis = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout?.match(/v=([\d.]+)/)?.[1] ?? null;
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpuModel: list[0]?.model ?? 'unknown',
    cores: list.length,
    memoryGb: +(totalmem() / 2 ** 30).toFixed(1),
    loadAverage1m: +loadavg()[0].toFixed(2),
    redis,
  };
}

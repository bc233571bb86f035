import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FILTER_ARCHITECTURES, unixSocketFilter } from '../../../src/core/process/unix-socket-filter.js';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

/** Runs the program as the kernel does: classic BPF over seccomp_data (nr, arch, args), little-endian. */
function evaluate(program: Buffer, data: { nr: number; arch: number; args?: number[] }): number {
  const words = new Map<number, number>([
    [0, data.nr >>> 0],
    [4, data.arch >>> 0],
  ]);
  for (const [i, value] of (data.args ?? []).entries()) words.set(16 + i * 8, value >>> 0);
  let a = 0;
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20:
        a = words.get(k) ?? 0;
        break;
      case 0x54:
        a = (a & k) >>> 0;
        break;
      case 0x15:
        pc += a === k ? jt : jf;
        break;
      case 0x35:
        pc += a >= k ? jt : jf;
        break;
      case 0x06:
        return k;
      default:
        throw new Error(`unknown instruction ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('fell off the end of the program');
}

describe('unixSocketFilter', () => {
  for (const [name, arch] of Object.entries(FILTER_ARCHITECTURES)) {
    const program = unixSocketFilter(name)!;
    const call = (nr: number, args: number[] = []) => evaluate(program, { nr, arch: arch.audit, args });

    test(`${name}: socket(AF_UNIX, …) is refused with EPERM, whatever the type flags; other families are allowed`, () => {
      assert.equal(program.length % 8, 0);
      for (const type of [1, 2, 5, 0x80001, 0x800 | 1]) assert.equal(call(arch.socket, [1, type, 0]), EPERM);
      for (const family of [2, 10, 16, 17]) assert.equal(call(arch.socket, [family, 1, 0]), ALLOW);
    });

    test(`${name}: socketpair(AF_UNIX) is allowed for streams and sequenced packets, refused for datagrams`, () => {
      assert.equal(call(arch.socketpair, [1, 1, 0]), ALLOW);
      assert.equal(call(arch.socketpair, [1, 1 | 0x80000, 0]), ALLOW);
      assert.equal(call(arch.socketpair, [1, 5, 0]), ALLOW);
      assert.equal(call(arch.socketpair, [1, 2, 0]), EPERM);
      assert.equal(call(arch.socketpair, [1, 2 | 0x80000 | 0x800, 0]), EPERM);
    });

    test(`${name}: io_uring fails with ENOSYS; other calls are allowed; another architecture's calls are refused`, () => {
      for (const nr of [425, 426, 427]) assert.equal(call(nr), ENOSYS);
      for (const nr of [0, 1, 59, 424, 428, 435]) assert.equal(call(nr), ALLOW);
      assert.equal(evaluate(program, { nr: 0, arch: 0x40000003 }), EPERM);
      assert.equal(evaluate(program, { nr: arch.socket, arch: arch.audit === 0xc000003e ? 0xc00000b7 : 0xc000003e, args: [2] }), EPERM);
    });
  }

  test('x64: the x32 ABI (the same architecture value, numbers from 0x40000000) is refused', () => {
    const program = unixSocketFilter('x64')!;
    assert.equal(evaluate(program, { nr: 0x40000000 + 41, arch: 0xc000003e, args: [1, 1] }), EPERM);
    assert.equal(evaluate(program, { nr: 0x40000000, arch: 0xc000003e }), EPERM);
  });

  test('an architecture without a filter gets none (the sandbox then says it is unavailable)', () => {
    assert.equal(unixSocketFilter('ia32'), undefined);
    assert.equal(unixSocketFilter('riscv64'), undefined);
  });
});

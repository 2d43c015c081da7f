"""Where a perf sample's time went, as the profile scripts under docs/bench sum it: the kernel, a
native library (the JVM, libc, the vDSO), or JIT-compiled Java by package (the sampled frame's own
time, not its callees'). Imported by 2026-11-27-leak-detector/categories.py and
2026-11-27-many-clients/categories-many.py."""
import re

# The first that a frame's name contains is its package: the more specific ones come first.
PACKAGES = ['io.netty.handler.codec.http2', 'io.grpc', 'io.netty.handler.codec.http', 'io.netty.handler.codec',
            'io.netty.handler', 'io.netty.buffer', 'io.netty.util.concurrent', 'io.netty.util', 'io.netty.channel.epoll',
            'io.netty.channel', 'org.salgate.transport', 'org.salgate.wire', 'org.salgate', 'com.google.protobuf',
            'java.util.concurrent', 'java.', 'jdk.']
# A perf report --stdio row's shared object and symbol: "[JIT] tid N", "[kernel.kallsyms]", "libc.so.6", ...,
# then [k] (kernel) or [.] (user) and the symbol.
DSO_SYMBOL = r'(\[JIT\] tid \d+|\[[^\]]+\]|\S+)\s+\[(.)\]\s+(.*)'
# Rows of `perf report --sort comm,dso,sym --stdio`: percentage, thread name, then DSO_SYMBOL.
BY_THREAD = re.compile(r'\s+([\d.]+)%\s+(\S+)\s+' + DSO_SYMBOL)
# Rows of `perf report --sort dso,sym --stdio -n`: percentage, samples, then DSO_SYMBOL.
WITH_SAMPLES = re.compile(r'\s+([\d.]+)%\s+(\d+)\s+' + DSO_SYMBOL)


def category(dso, kind, symbol, other='other (stubs, interpreter)'):
    """The kernel, the shared object, or 'Java <package>' for JIT-compiled code."""
    if kind == 'k':
        return 'kernel'
    if dso.startswith('[JIT]'):
        return 'Java ' + next((p for p in PACKAGES if p in symbol), other)
    return dso

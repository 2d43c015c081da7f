"""Where a perf sample's time went, as the profile scripts under docs/bench sum it: the kernel, a
native library (the JVM, libc, the vDSO), or JIT-compiled Java by package (the sampled frame's own
time, not its callees'). Imported by 2026-11-27-leak-detector/categories.py and
2026-11-27-many-clients/categories-many.py."""
import re

# The first that a frame's method name starts with is its package: the more specific ones come first.
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


def method(symbol):
    """The qualified name of a JIT-compiled frame's own method, 'org.salgate.wire.FrameReader.next'
    in 'org.salgate.wire.Message org.salgate.wire.FrameReader.next()': its return and parameter
    types name other packages."""
    head = symbol.split('(', 1)[0].split()
    return head[-1] if head else ''


def category(dso, kind, symbol, other='other (stubs, interpreter)'):
    """The kernel, the shared object, or 'Java <package>' for JIT-compiled code, by the package of
    the frame's own method."""
    if kind == 'k':
        return 'kernel'
    if dso.startswith('[JIT]'):
        name = method(symbol)
        return 'Java ' + next((p for p in PACKAGES if name.startswith(p)), other)
    return dso

#!/usr/bin/env python3
"""Sums async-profiler collapsed traces of PoolArena$DirectArena.newChunk (a fresh 4 MB chunk of
direct memory) by what the chunk was wanted for:
  grown, first decoder   a decoder's buffer grown by reallocation, the decoder being the first in
                         the pipeline (with TLS, the TLS handler, which TlsHandlers puts first;
                         without it, on an http client, the WebSocket frame decoder)
  grown, later decoder   the same for a decoder after the first (over TLS, the WebSocket decoder)
  written, copied        a message written as a heap buffer, copied by the epoll channel into a
                         direct one before it is queued for the socket
  socket read            the buffer a socket read fills
  elsewhere              anything else
The decoder whose buffer grew is the innermost ByteToMessageDecoder.channelRead on the stack.
Usage: python3 classify.py calls-PID.collapsed ..."""
import collections
import sys

for path in sys.argv[1:]:
    kinds = collections.Counter()
    for line in open(path):
        stack, count = line.rsplit(' ', 1)
        frames = stack.split(';')
        if any('PoolArena.reallocate' in f for f in frames):
            reads = [i for i, f in enumerate(frames) if f.endswith('ByteToMessageDecoder.channelRead')]
            if not reads:
                kind = 'grown, elsewhere'
            elif frames[reads[-1] - 2].endswith('HeadContext.channelRead'):
                kind = 'grown, first decoder'
            else:
                kind = 'grown, later decoder'
        elif any('filterOutboundMessage' in f for f in frames):
            kind = 'written, copied'
        elif any('ioBuffer' in f for f in frames):
            kind = 'socket read'
        else:
            kind = 'elsewhere'
        kinds[kind] += int(count)
    print(f'{path}: {sum(kinds.values())};', ', '.join(f'{k} {n}' for k, n in kinds.most_common()))

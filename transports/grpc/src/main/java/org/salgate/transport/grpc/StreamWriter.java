package org.salgate.transport.grpc;

import com.google.protobuf.UnsafeByteOperations;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.CallStreamObserver;
import java.util.function.BooleanSupplier;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.grpc.proto.EncodedFrame;

/**
 * Drains a connection's {@link OutboundQueue} into its {@code SalSession} stream, on the server's
 * sessions and the client alike: batches are handed to gRPC, one message per frame, while the
 * stream is ready; the stream's on-ready handler drains again. A batch counts as written once gRPC
 * holds it, as gRPC's own buffer is bounded by the stream's ready threshold.
 */
final class StreamWriter {

    private StreamWriter() {
    }

    /**
     * Hands batches to {@code out} while it is ready and not {@code ended}, under {@code lock} (gRPC's
     * observers are not thread-safe); runs {@code whenEmptied}, still under the lock, if the queue
     * ran empty. The bytes handed are reported written after the lock is let go, as the agent's
     * writability listener may run then.
     */
    static void drain(OutboundQueue<byte[]> queue, CallStreamObserver<EncodedFrame> out, Object lock,
                      BooleanSupplier ended, Runnable whenEmptied) {
        long handed = 0;
        try {
            synchronized (lock) {
                while (!ended.getAsBoolean()) {
                    if (!out.isReady() && queue.hasWaiting()) {
                        return; // resumed by the on-ready handler
                    }
                    OutboundQueue.Batch<byte[]> batch = queue.next();
                    if (batch.isEmpty()) {
                        whenEmptied.run();
                        return;
                    }
                    handed += batch.bytes();
                    try {
                        for (byte[] frame : batch.items()) {
                            out.onNext(EncodedFrame.newBuilder().setFrame(UnsafeByteOperations.unsafeWrap(frame)).build());
                        }
                    } catch (IllegalStateException | StatusRuntimeException e) {
                        queue.discard(); // the stream is ending; what waits cannot be sent
                        return;
                    }
                }
            }
        } finally {
            if (handed > 0) {
                queue.written(handed);
            }
        }
    }
}

package org.salgate.bench.restgrpc;

import java.util.concurrent.TimeUnit;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.wire.proto.WireProto.Execute;
import org.salgate.wire.proto.WireProto.ListSensors;
import org.salgate.wire.proto.WireProto.Reading;
import org.salgate.wire.proto.WireProto.SensorRef;

/** The gRPC transport's typed {@code Sal} service through its generated blocking stub, on one channel. */
final class GrpcClient implements ApiClient {

    private static final long DEADLINE_SECONDS = 30;

    private final ManagedChannel channel;
    private final SalGrpc.SalBlockingStub stub;
    private final ListSensors list = ListSensors.getDefaultInstance();
    private final Execute read = Execute.newBuilder().setSensorId(Operation.SENSOR).setCommandId(Operation.COMMAND)
            .build();
    private final SensorRef sensor = SensorRef.newBuilder().setSensorId(Operation.SENSOR).build();

    GrpcClient(int port) {
        channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        stub = SalGrpc.newBlockingStub(channel);
    }

    @Override
    public int call(Operation op) {
        SalGrpc.SalBlockingStub s = stub.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
        return switch (op) {
            case LIST -> s.listSensors(list).getSensorsCount();
            case READ -> {
                Reading r = s.execute(read);
                if (!r.getSensorId().equals(Operation.SENSOR) || !r.hasValue()) {
                    throw new IllegalStateException("the read answered no reading of " + Operation.SENSOR + ": " + r);
                }
                yield 1;
            }
            case DESCRIBE -> s.describeSensor(sensor).getText().length();
        };
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

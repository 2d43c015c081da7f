package org.salgate.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.transport.Transports;

class ConnectionWarmUpTest {

    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "socket", "grpc", "http"})
    void theWarmUpConnectionIsAnsweredEveryCallOnEachScaleTransport(String transport) throws Exception {
        assertEquals(ConnectionWarmUp.WARM_UP_CALLS,
                ConnectionWarmUp.warmUp(Transports.byName(transport), Duration.ofSeconds(10)));
    }
}

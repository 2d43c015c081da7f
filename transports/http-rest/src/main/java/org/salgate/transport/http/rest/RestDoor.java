package org.salgate.transport.http.rest;

import java.util.function.LongSupplier;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.http.HttpDoor;

/**
 * Opens the http transport's door for people and programs other than salgate clients, the
 * {@link RestApi}. Registered in {@code META-INF/services/org.salgate.transport.http.HttpDoor$Factory}.
 */
public final class RestDoor implements HttpDoor.Factory {

    @Override
    public HttpDoor open(ServerHandler handler, ServerOptions options, MemoryBudget budget, LongSupplier sessionIds) {
        return new RestApi(handler, options, sessionIds, budget);
    }
}

package org.salgate.wire;

import org.salgate.model.Call;

import java.util.Objects;

/**
 * A client's call, with an id that the matching {@link Response} carries back.
 *
 * @param id chosen by the client, unique among its requests in flight
 * @param call what is asked
 */
public record Request(long id, Call call) implements Message {
    public Request {
        Objects.requireNonNull(call, "call");
    }
}

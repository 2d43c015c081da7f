package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * Exported by a client so that the agent can push frames to it. Every frame the agent sends on a
 * session, pushed here or returned by {@link SessionRemote#call}, carries the next number of one
 * sequence from 0, and the client hands them on in that order.
 */
public interface CallbackRemote extends Remote {

    /**
     * Delivers pushed frames, {@code frames[i]} numbered {@code sequences[i]}; returns once the client
     * has taken them, which paces the agent. The agent batches what queued up while the previous push
     * was under way, so a backlog of small frames costs a few remote calls, not one each.
     */
    void push(long[] sequences, byte[][] frames) throws RemoteException;

    /**
     * The agent closed the session.
     *
     * @param sequence the close's place in the sequence, after every frame sent before it; -1 when
     *     the session was cut short and frames may be missing
     * @param reason why, when it was an error, else empty
     */
    void sessionClosed(long sequence, String reason) throws RemoteException;
}

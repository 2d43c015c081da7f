package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * Exported by a client so that the agent can push it frames: everything but an answer that goes
 * back with its call ({@link SessionRemote#call}). The agent makes one push at a time per session,
 * and the client hands a push on after the answer of a call under way, so frames arrive in the
 * order the agent sent them.
 */
public interface CallbackRemote extends Remote {

    /**
     * Delivers frames in order; returns once the client has taken them, which paces the agent. The
     * agent batches what queued up while the previous push was under way.
     */
    void push(byte[][] frames) throws RemoteException;

    /**
     * The agent closed the session.
     *
     * @param reason why, when it was an error, else empty
     */
    void sessionClosed(String reason) throws RemoteException;
}

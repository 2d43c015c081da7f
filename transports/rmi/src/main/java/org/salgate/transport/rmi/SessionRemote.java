package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** One client's session on an RMI agent, exported by the agent for that client alone. */
public interface SessionRemote extends Remote {

    /**
     * Hands one encoded frame (a hello or a request) to the agent. A call that may carry its answer
     * back waits a short while for it and returns it, unless something the agent sent before is
     * still queued or being pushed; every other frame comes through the client's
     * {@link CallbackRemote}. The client lets one call at a time carry its answer, and hands it on
     * before any later push, so frames reach it in the order the agent sent them.
     *
     * @param carry whether this call may carry its answer back; the agent lets only one call at a
     *     time wait for that, and none while a push is under way
     * @return the encoded answer, or an empty array when it is pushed
     * @throws RemoteException if the session is closed or the frame was refused
     */
    byte[] call(byte[] frame, boolean carry) throws RemoteException;

    /** Closes the session from the client's side. */
    void close() throws RemoteException;
}

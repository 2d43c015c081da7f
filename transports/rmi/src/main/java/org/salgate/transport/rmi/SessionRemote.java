package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * One client's session on an RMI agent, exported by the agent for that client alone. The client
 * opens no listener: what the agent sends comes back with a call or with a {@link #poll}.
 */
public interface SessionRemote extends Remote {

    /**
     * Hands one encoded frame (a hello or a request) to the agent. A call that may carry its answer
     * back waits a short while for it and returns it, unless something the agent sent before is
     * still queued or not yet handed on by the client; every other frame comes with a poll. The
     * client lets one call at a time carry its answer, and hands it on before any later poll's
     * frames, so frames reach it in the order the agent sent them.
     *
     * @param carry whether this call may carry its answer back; the agent lets only one call at a
     *     time wait for that, and none while a polled batch is being handed on
     * @return the encoded answer, or an empty array when it comes with a poll
     * @throws RemoteException if the session is closed or the frame was refused
     */
    byte[] call(byte[] frame, boolean carry) throws RemoteException;

    /**
     * Takes the frames the agent queued for the client, in order, waiting a while for some when
     * none are queued. The client polls one at a time, and hands a batch on before it polls again,
     * which tells the agent the batch was taken (and paces it); a client that stops polling for
     * longer than the agent's read timeout is taken as gone.
     *
     * @return the next frames, none when the wait ran out, or null when the agent closed the session
     * @throws RemoteException saying why the agent closed the session, when it closed it for an error
     */
    byte[][] poll() throws RemoteException;

    /** Closes the session from the client's side (what is queued for the client is dropped). */
    void leave() throws RemoteException;
}

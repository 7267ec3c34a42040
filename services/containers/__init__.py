"""Longhouse in containers: the images, a private Docker engine for tests, the containers' roles
and health check.

* :mod:`.images`: the wheelhouse, the Debian base image made with debootstrap, the project
  image (``make images``);
* :mod:`.engine`: a ``dockerd`` of one's own (its own socket and data root, no bridge);
* :mod:`.roles`: the image's entrypoint, one role a container;
* :mod:`.health`: the containers' health check, one per role.

The users' fixture that starts the whole stack from these images lives on the client side, in
``longhouse_client.testing`` (``pip install 'longhouse_client[containers]'``), so testing against
the stack never installs the server's packages.
"""
